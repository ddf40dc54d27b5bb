/**
 * Two ways for tests to talk to the fixture servers, each remembering every process it started so that
 * `stopAll()` can end them by pid even when a test fails:
 * - `startSdkSession`: the official MCP client over its stdio transport (stderr piped and captured);
 * - `startRawSession`: the bare process with newline-delimited JSON-RPC written by hand, for what the SDK
 *   hides (exit codes, stdout noise, lines too long for its buffer). Its line reader is linear in the bytes
 *   read and never keeps more than `maxLineBytes` of an unfinished line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { basename } from 'node:path';
import { Client, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type FixtureServerName, fixtureServerLaunch } from '../fixtures/servers/fixture-servers.js';
import { isAlive } from '../helpers/project.js';
import { waitUntil as waitFor } from '../helpers/wait-until.js';

export { waitFor };

const startedPids = new Set<number>();
const closers: Array<() => Promise<void>> = [];

export function trackPid(pid: number | null | undefined): void {
  if (typeof pid === 'number') startedPids.add(pid);
}

/** Closes every session and SIGKILLs, by pid, every process a test started that is still running. */
export async function stopAll(): Promise<void> {
  for (const close of closers.splice(0)) await close().catch(() => {});
  for (const pid of startedPids) {
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  startedPids.clear();
}

/** Keeps the total byte count of a stream and its last `keep` characters. */
class StreamTail {
  bytes = 0;
  private tail = '';
  constructor(private readonly keep = 64 * 1024) {}
  add(chunk: Buffer | string): void {
    this.bytes += chunk.length;
    const text = this.tail + chunk.toString();
    this.tail = text.length > this.keep ? text.slice(text.length - this.keep) : text;
  }
  get text(): string {
    return this.tail;
  }
}

export interface SdkSession {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: StreamTail;
  transportErrors: Error[];
}

export async function startSdkSession(
  name: FixtureServerName,
  options: { env?: Record<string, string>; maxBufferSize?: number } = {},
): Promise<SdkSession> {
  const stderr = new StreamTail();
  const transportErrors: Error[] = [];
  const transport = new StdioClientTransport({
    ...fixtureServerLaunch(name, options.env),
    stderr: 'pipe',
    ...(options.maxBufferSize === undefined ? {} : { maxBufferSize: options.maxBufferSize }),
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
  const client = new Client({ name: 'fixture-smoke-test', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  closers.push(() => client.close());
  try {
    await client.connect(transport);
  } finally {
    trackPid(transport.pid);
  }
  return { client, transport, pid: transport.pid as number, stderr, transportErrors };
}

export interface RawSession {
  child: ChildProcessWithoutNullStreams;
  /** Complete stdout lines, in order. */
  lines: string[];
  stdoutBytes: () => number;
  /** Whether a line grew past `maxLineBytes` and was dropped. */
  oversizedLine: () => boolean;
  /** Whether stdout has ended (every process holding it has closed it). */
  stdoutEnded: () => boolean;
  stderr: StreamTail;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The exit, once stdout and stderr are read to their end too (never, while another process holds them). */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  send: (message: unknown) => void;
  /** Sends `initialize` and `notifications/initialized`; resolves with the initialize response. */
  initialize: () => Promise<Record<string, unknown>>;
  /** Resolves with the parsed response to request `id`. */
  response: (id: number, timeoutMs?: number) => Promise<Record<string, unknown>>;
}

/** `server`: a fixture of test/fixtures/servers by name, or another fixture script by its path. */
export function startRawSession(
  server: FixtureServerName | { script: string },
  options: { env?: Record<string, string>; maxLineBytes?: number } = {},
): RawSession {
  const name = typeof server === 'string' ? server : basename(server.script);
  const launch =
    typeof server === 'string'
      ? fixtureServerLaunch(server, options.env)
      : {
          command: process.execPath,
          args: [server.script],
          ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } as Record<string, string> }),
        };
  const child = spawn(launch.command, launch.args, { env: launch.env ?? process.env, stdio: 'pipe' });
  trackPid(child.pid);
  closers.push(async () => {
    child.stdin.end();
  });
  const maxLineBytes = options.maxLineBytes ?? 128 * 1024 * 1024;
  const lines: string[] = [];
  const stderr = new StreamTail();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let stdoutBytes = 0;
  let oversized = false;

  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, newline));
      if (pendingBytes + newline - start <= maxLineBytes) lines.push(Buffer.concat(pending).toString('utf8'));
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (pendingBytes + rest.length > maxLineBytes) {
      oversized = true;
      pending = [];
      pendingBytes = maxLineBytes + 1;
    } else if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  });
  let ended = false;
  child.stdout.on('end', () => {
    ended = true;
  });
  child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
  child.stdin.on('error', () => {});
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );

  const send = (message: unknown): void => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const response = async (id: number, timeoutMs = 20_000): Promise<Record<string, unknown>> => {
    let found: Record<string, unknown> | undefined;
    let searched = 0;
    await waitFor(
      () => {
        for (; searched < lines.length && found === undefined; searched++) {
          const line = lines[searched] as string;
          if (!line.startsWith('{')) continue;
          const message = JSON.parse(line) as Record<string, unknown>;
          if (message.id === id) found = message;
        }
        return found !== undefined;
      },
      `the response to request ${id} from ${name}`,
      timeoutMs,
    );
    return found as Record<string, unknown>;
  };
  const initialize = async (): Promise<Record<string, unknown>> => {
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'fixture-smoke-test', version: '1.0.0' },
      },
    });
    const answer = await response(0);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return answer;
  };
  return {
    child,
    lines,
    stdoutBytes: () => stdoutBytes,
    oversizedLine: () => oversized,
    stdoutEnded: () => ended,
    stderr,
    exit,
    closed,
    send,
    initialize,
    response,
  };
}

/** The text of the first content block of a tool result. */
export function firstText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  const first = content[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error('expected a text block first');
  return first.text;
}
