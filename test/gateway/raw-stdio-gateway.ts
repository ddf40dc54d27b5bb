/**
 * `mcp-host serve --stdio` as a child process spoken to in raw lines, which no MCP client would send, past the
 * handshake (`initialize` answered as id 1, then `notifications/initialized`). Every line on its stdout must be
 * JSON: anything else would break a client. Stopped by pid when the test's cleanup runs, even on failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { waitUntil } from '../helpers/gateway-process.js';

const NEWLINE = 0x0a;

export interface RawStdioGateway {
  child: ChildProcess;
  /** False when the line waits in this process, the pipe being full: the gateway is not reading. */
  send(line: string): boolean;
  /** Every message read from stdout so far, in order. */
  answers: unknown[];
  stderr(): string;
  /** Stops reading stdout, as a stuck client does; `readAgain` goes on. */
  stopReading(): void;
  readAgain(): void;
}

export async function rawStdioGateway(
  args: string[],
  cleanups: Array<() => Promise<void>>,
  capabilities: Record<string, unknown> = {},
): Promise<RawStdioGateway> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // A gateway with answers still to write may wait for them to be read before it exits.
    child.stdout?.resume();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });
  const answers: unknown[] = [];
  // A line's pieces are joined once, at its end: splitting all that was read at each 64 KB piece made reading
  // hundreds of 1 MB answers cost the test more CPU than the gateway.
  const pieces: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    let from = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, from)) {
      pieces.push(chunk.subarray(from, end));
      answers.push(JSON.parse(Buffer.concat(pieces.splice(0)).toString('utf8')));
      from = end + 1;
    }
    if (from < chunk.length) pieces.push(chunk.subarray(from));
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  // A client that stops reading may still be written to: the pipe must not fail the test.
  child.stdin?.on('error', () => undefined);
  const send = (line: string) => child.stdin?.write(`${line}\n`) ?? false;
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
  await waitUntil(() => answerTo(answers, 1) !== undefined, 'the answer to initialize');
  send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return {
    child,
    send,
    answers,
    stderr: () => stderr,
    stopReading: () => child.stdout?.pause(),
    readAgain: () => child.stdout?.resume(),
  };
}

export function answerTo(answers: unknown[], id: unknown): Record<string, unknown> | undefined {
  return answers.find((answer) => (answer as { id?: unknown }).id === id) as Record<string, unknown> | undefined;
}

/** A `tools/call` request as one line, as a client writes it; `extra` goes into its params (e.g. `_meta`). */
export function toolCallLine(
  id: number,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra } });
}
