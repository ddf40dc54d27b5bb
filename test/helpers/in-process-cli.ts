/**
 * Runs the real `mcp-host` command line (the program src/cli/main.ts runs, every command) inside the test worker,
 * as `runCli` runs it in a process of its own: the same clean environment, working folder, stdin and exit code,
 * with stdout and stderr caught apart. A real start costs about a second of CPU, nearly all module loading; here
 * the modules are loaded once per worker. Use it for what a command does with config files, servers and output;
 * keep `runCli` for what is about the process (signals, pipes, TTY, stdin closing, process groups, start-up).
 *
 * While a command runs it owns the worker's process globals (env, cwd, stdin, stdout, stderr, exitCode), so runs
 * are queued one after another. Afterwards everything is put back, signal handlers the command left are removed,
 * and a process it started and left running fails the run (after it is killed).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runCommandLine } from '../../src/cli/command-line.js';
import { descendantsOf, type TrackedProcess } from '../../src/connections/process-tree.js';
import { type CliOptions, type CliResult, repoRoot } from './project.js';

export interface InProcessCliOptions extends CliOptions {
  /** The run fails after this long (default 30 s), as `runCli` kills the process then. */
  timeoutMs?: number;
}

export interface InProcessCliResult extends CliResult {
  code: number;
}

/** How long servers a command left running get to exit before the run fails: a real process would wait for them. */
const LEFT_RUNNING_GRACE_MS = 2_000;

/** A stream that keeps everything written to it, as a pipe to the test would. */
class CapturedOutput extends Writable {
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    callback();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

interface SavedGlobals {
  env: NodeJS.ProcessEnv;
  cwd: string;
  exitCode: typeof process.exitCode;
  streams: Map<'stdin' | 'stdout' | 'stderr', PropertyDescriptor | undefined>;
  signalListeners: Map<Signal, NodeJS.SignalsListener[]>;
}

/** Signals a command may handle; what it leaves attached is removed after the run. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE', 'SIGQUIT'] as const;
type Signal = (typeof SIGNALS)[number];

function replaceEnvironment(env: Record<string, string>): void {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
}

function takeOverGlobals(
  options: InProcessCliOptions,
  streams: { stdin: NodeJS.ReadableStream; stdout: Writable; stderr: Writable },
): SavedGlobals {
  const saved: SavedGlobals = {
    env: { ...process.env },
    cwd: process.cwd(),
    exitCode: process.exitCode,
    streams: new Map(),
    signalListeners: new Map(SIGNALS.map((signal) => [signal, process.listeners(signal) as NodeJS.SignalsListener[]])),
  };
  // Exactly what startCli gives the process.
  const environment = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    MCP_HOST_STATE_DIR: options.stateDir ?? mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
    ...options.env,
  };
  const cwd = options.cwd ?? repoRoot;
  process.chdir(cwd);
  replaceEnvironment(environment);
  process.exitCode = undefined;
  for (const name of ['stdin', 'stdout', 'stderr'] as const) {
    saved.streams.set(name, Object.getOwnPropertyDescriptor(process, name));
    Object.defineProperty(process, name, { value: streams[name], configurable: true, enumerable: true });
  }
  return saved;
}

function restoreGlobals(saved: SavedGlobals): void {
  for (const [name, descriptor] of saved.streams) {
    if (descriptor) Object.defineProperty(process, name, descriptor);
  }
  replaceEnvironment(saved.env as Record<string, string>);
  process.chdir(saved.cwd);
  process.exitCode = saved.exitCode;
  for (const signal of SIGNALS) {
    for (const listener of addedListeners(signal, saved)) process.off(signal, listener);
  }
}

/** Listeners for `signal` attached since `saved` was taken. */
function addedListeners(signal: Signal, saved: SavedGlobals): NodeJS.SignalsListener[] {
  const before = saved.signalListeners.get(signal) ?? [];
  return (process.listeners(signal) as NodeJS.SignalsListener[]).filter((listener) => !before.includes(listener));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function key(process: TrackedProcess): string {
  return `${process.pid}@${process.startTime}`;
}

/** Processes below this worker that were not there before the run, once they had a moment to exit. */
async function processesLeftRunning(before: Set<string>): Promise<TrackedProcess[]> {
  const deadline = Date.now() + LEFT_RUNNING_GRACE_MS;
  for (;;) {
    const left = descendantsOf(process.pid).filter((child) => !before.has(key(child)));
    if (left.length === 0 || Date.now() >= deadline) return left;
    await delay(50);
  }
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `mcp-host ...args` in this process, as `runCli` runs it in its own; see the file comment. */
export function runCliInProcess(args: string[], options: InProcessCliOptions = {}): Promise<InProcessCliResult> {
  const run = queue.then(() => runNow(args, options));
  queue = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], options: InProcessCliOptions): Promise<InProcessCliResult> {
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const before = new Set(descendantsOf(process.pid).map(key));
  const saved = takeOverGlobals(options, { stdin, stdout, stderr });
  const command = runCommandLine([process.execPath, 'mcp-host', ...args]);
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  let code: number | 'timed out';
  try {
    code = await Promise.race([command, timedOut]);
    if (code === 'timed out') {
      // runCli kills the process here; the nearest in-process stop is the command's own SIGTERM handling, which
      // cancels what is in flight and closes its servers.
      for (const listener of addedListeners('SIGTERM', saved)) listener('SIGTERM');
      await Promise.race([command.catch(() => undefined), delay(LEFT_RUNNING_GRACE_MS)]);
    }
    // Let anything still queued on the streams arrive.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    clearTimeout(timer);
    restoreGlobals(saved);
  }
  const left = await processesLeftRunning(before);
  for (const child of left) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const problems = [
    ...(code === 'timed out' ? [`did not finish in ${timeoutMs} ms`] : []),
    ...(left.length > 0
      ? [`left ${left.length} process(es) running (now killed): ${left.map((child) => child.pid).join(', ')}`]
      : []),
  ];
  if (code === 'timed out' || problems.length > 0) {
    throw new Error(
      `mcp-host ${args.join(' ')} ${problems.join('; ')}\nstdout: ${stdout.text()}\nstderr: ${stderr.text()}`,
    );
  }
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
