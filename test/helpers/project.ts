/** Paths and small utilities shared by the end-to-end tests. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledFixture } from './bundled-fixture.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The `mcp-host` command as the package's `bin` runs it: the bundle (`npm run build:bundle`). */
export const cliPath = join(repoRoot, 'dist', 'bundle', 'cli', 'main.js');
/** The same command as tsc wrote it, one file per module (for tests that look at which modules load). */
export const unbundledCliPath = join(repoRoot, 'dist', 'src', 'cli', 'main.js');

/** `cliPath`, after checking the bundle is there and up to date. */
export function bundledCliPath(): string {
  checkBundle(cliPath, unbundledCliPath);
  return cliPath;
}

/** Throws, saying what to run, when the bundle is missing or older than what it was built from. */
export function checkBundle(bundled: string, builtFrom: string): void {
  if (!existsSync(bundled)) throw new Error(`${bundled} is missing: run \`npm run build:bundle\``);
  if (existsSync(builtFrom) && statSync(bundled).mtimeMs < statSync(builtFrom).mtimeMs) {
    throw new Error(`${bundled} is older than ${builtFrom}: run \`npm run build:bundle\``);
  }
}

/** A bundled example server, e.g. `calculator` → dist/bundle/examples/servers/calculator.js. */
export function exampleServer(name: string): string {
  const compiled = join(repoRoot, 'dist', 'examples', 'servers', `${name}.js`);
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`npm run build\` first`);
  const bundled = join(repoRoot, 'dist', 'bundle', 'examples', 'servers', `${name}.js`);
  checkBundle(bundled, compiled);
  return bundled;
}

/** A fixture in test/fixtures/servers/ (its bundle where there is one), e.g. `counter.mjs`. */
export function fixtureServer(name: string): string {
  return bundledFixture(join(repoRoot, 'test', 'fixtures', 'servers', name));
}

/** A config's entry for the server `path` (an example or a fixture) run by Node, marked trusted: nothing asks first. */
export function trustedServer(path: string): { command: string; args: string[]; trust: 'trusted' } {
  return { command: process.execPath, args: [path], trust: 'trusted' };
}

export async function temporaryDirectory(prefix = 'mcp-host-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Writes a config file in a fresh temporary folder and returns its path. */
export async function writeConfig(config: unknown): Promise<string> {
  const directory = await temporaryDirectory();
  const file = join(directory, 'mcp-host.json');
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * Writes a scripted model's script and a config whose model is that script, in a fresh temporary folder; returns the
 * config's path.
 */
export async function writeScriptedConfig(
  prefix: string,
  script: unknown,
  config: Record<string, unknown>,
): Promise<string> {
  const directory = await temporaryDirectory(prefix);
  const scriptPath = join(directory, 'script.json');
  await writeFile(scriptPath, JSON.stringify(script));
  const file = join(directory, 'mcp-host.json');
  await writeFile(file, JSON.stringify({ model: `scripted:${scriptPath}`, ...config }));
  return file;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: string;
  stateDir?: string;
  /** Another build of the command to run instead of the bundle. */
  cli?: string;
}

export interface StartedCli {
  child: ChildProcessWithoutNullStreams;
  output(): { stdout: string; stderr: string };
  /** Resolves when the process has exited and its output is read. */
  closed: Promise<CliResult>;
}

/** Starts the real CLI as a user would, with a clean environment plus `env`; the caller waits and stops it. */
export function startCli(args: string[], options: CliOptions = {}): StartedCli {
  const cli = options.cli ?? bundledCliPath();
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // A fresh trust store and audit log per run unless the test shares one on purpose.
      MCP_HOST_STATE_DIR: options.stateDir ?? mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
  // A command that exits before reading its input (a usage error) closes the pipe first: that EPIPE is no failure.
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  child.stdin.end(options.input ?? '');
  return { child, output: () => ({ stdout, stderr }), closed };
}

/** Runs the real CLI to its end (killed after `timeoutMs`). */
export function runCli(args: string[], options: CliOptions & { timeoutMs?: number } = {}): Promise<CliResult> {
  const cli = startCli(args, options);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      cli.child.kill('SIGKILL');
      const { stdout, stderr } = cli.output();
      reject(new Error(`mcp-host ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    cli.closed.then(
      (result) => {
        clearTimeout(timer);
        resolvePromise(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Process ids in a process group (empty when the group is gone). */
export async function processGroupMembers(groupId: number): Promise<number[]> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolvePromise) => {
    execFile('ps', ['-e', '-o', 'pid=,pgid=,stat='], (_error, stdout) => {
      const members: number[] = [];
      for (const line of stdout.split('\n')) {
        const [pid, pgid, stat] = line.trim().split(/\s+/);
        // Zombies are already dead; they only wait for their parent to reap them.
        if (Number(pgid) === groupId && !stat?.startsWith('Z')) members.push(Number(pid));
      }
      resolvePromise(members);
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
