/**
 * The real CLI's `chat` in pipe mode with the scripted model and the counter fixture, in a temporary folder made
 * before the file's tests and removed after them, and what its output says of the `counter__sleep` calls.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type CliResult, fixtureServer, runCli, temporaryDirectory } from '../helpers/project.js';

/** A scripted model turn asking for one `counter__sleep` call, then its answer naming the milliseconds. */
export function sleepTurn(ms: number, callId?: string): object[] {
  const call = { ...(callId === undefined ? {} : { id: callId }), name: 'counter__sleep', arguments: { ms } };
  return [{ toolCalls: [call] }, { text: `Slept ${ms}.` }];
}

export interface CounterChat {
  /** Runs `chat` on `input`, or `chat --resume <resume>`, sharing the folder's state between runs. */
  chat(input: string, options?: { resume?: string }): Promise<CliResult>;
}

/** Registers the file's set-up and clean-up: `script` is the scripted model's, `config` adds to the config. */
export function counterChat(prefix: string, script: object, config: object = {}): CounterChat {
  let directory: string | undefined;
  beforeAll(async () => {
    directory = await temporaryDirectory(prefix);
    await writeFile(join(directory, 'script.json'), JSON.stringify(script));
    await writeFile(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        model: 'scripted:script.json',
        ...config,
        mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
      }),
    );
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  return {
    chat: (input, options = {}) => {
      if (directory === undefined) throw new Error('the chat folder is made before the tests');
      const resume = options.resume === undefined ? [] : ['--resume', options.resume];
      return runCli(['chat', '-c', 'mcp-host.json', ...resume], {
        cwd: directory,
        stateDir: join(directory, 'state'),
        input,
      });
    },
  };
}

/** The session a chat's output names, to resume it. */
export function sessionId(stdout: string): string {
  return /session (\d{8}-\d{6}-[0-9a-f]{8})/.exec(stdout)?.[1] ?? '';
}

/**
 * What `/expand N` printed for call N: its lines from its heading (`[N] counter sleep ·` live, `[N] counter__sleep ·`,
 * the name the transcript saved, after a resume) to the next call's heading or line.
 */
export function expanded(stdout: string, number: number): string {
  const at = stdout.search(new RegExp(`^\\[${number}\\] counter(?: |__)sleep ·`, 'm'));
  if (at === -1) return '';
  const rest = stdout.slice(at + 1);
  const end = rest.search(/^\[\d+\] /m);
  return rest.slice(0, end === -1 ? undefined : end);
}

/** The numbered call lines of a chat's output: number and `ms` argument. */
export function callLines(stdout: string): { number: number; ms: number }[] {
  return [...stdout.matchAll(/^\[(\d+)\] ⚙ counter sleep \{"ms":(\d+)\}/gm)].map((match) => ({
    number: Number(match[1]),
    ms: Number(match[2]),
  }));
}
