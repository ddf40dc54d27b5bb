/**
 * Runs one CLI command (the same commander command `mcp-host` builds) inside the test process, its output caught.
 * For tests about what a command does with real files and servers, not about the process: each real `mcp-host`
 * start costs about a second of module loading.
 */
import { PassThrough } from 'node:stream';
import { type Command, CommanderError } from 'commander';

export interface CommandOutput {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface InProcessResult {
  /** What the process would exit with: 0, or the code of the error the command reported. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Commander would end the process on an error; make it throw instead, and print where the test reads. */
function catchExitsAndOutput(command: Command, write: (text: string) => void): void {
  command.exitOverride().configureOutput({ writeOut: write, writeErr: write });
  for (const sub of command.commands) catchExitsAndOutput(sub, write);
}

export async function runCommandInProcess(
  create: (output: CommandOutput) => Command,
  args: string[],
): Promise<InProcessResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const command = create({ stdout, stderr });
  catchExitsAndOutput(command, (text) => stderr.write(text));
  let code = 0;
  try {
    await command.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode;
  }
  // Let the caught streams hand on anything still queued.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out, stderr: err };
}
