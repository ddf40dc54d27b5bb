/**
 * The real CLI with a server started through `sh -c` that leaves a grandchild: after a normal end, SIGINT or
 * SIGTERM of the host (during a run, a direct call, or start-up) no process is left behind, counted with `ps`;
 * calls in flight are cancelled at the server. After SIGKILL of the host nothing in the host runs: servers that
 * exit when stdin closes are gone within seconds, but a grandchild that ignores stdin cannot be cleaned up.
 * Also: the timeout settings as a user writes them (`tools.TOOL.timeoutMs` in the file, `--timeout`).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/project.js';
import {
  eventLines,
  faultFixture,
  freshDirectory,
  killPids,
  processesWith,
  uniqueMarker,
  waitUntil,
} from './fault-helpers.js';

interface Cli {
  child: ChildProcessWithoutNullStreams;
  output: () => { stdout: string; stderr: string };
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Cli[] = [];
const markers: string[] = [];

// Even when a test fails half-way: end the CLIs it started and every process carrying one of its markers.
afterEach(async () => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  for (const marker of markers.splice(0)) killPids((await processesWith(marker)).map((entry) => entry.pid));
});

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npm run build\` first`);
});

function startCli(args: string[], directory: string): Cli {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: directory,
    env: { PATH: process.env.PATH ?? '', HOME: directory, MCP_HOST_STATE_DIR: join(directory, 'state') },
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
  // 'close', not 'exit': the process can be gone before what it wrote last is read.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const cli = { child, output: () => ({ stdout, stderr }), exit };
  started.push(cli);
  return cli;
}

interface Setup {
  directory: string;
  eventLog: string;
  marker: string;
  config: string;
}

/** A config whose one server is `sh -c 'node recorder.mjs; true'` with a grandchild, and a scripted model. */
function setUp(
  grandchild: 'ignore-stdin' | 'watch-parent',
  extraEnv: Record<string, string> = {},
  serverExtra: Record<string, unknown> = {},
): Setup {
  const directory = freshDirectory('mcp-host-cli-faults-');
  const eventLog = join(directory, 'events.log');
  const marker = uniqueMarker('cli-fault');
  markers.push(marker);
  const script = {
    scenarios: [
      {
        match: 'ping',
        turns: [{ toolCalls: [{ name: 'wrapped__ping', arguments: {} }] }, { text: 'answer: {{lastToolResult}}' }],
      },
      {
        match: 'sleep',
        turns: [{ toolCalls: [{ name: 'wrapped__sleep', arguments: { ms: 60_000 } }] }, { text: 'woke up' }],
      },
    ],
  };
  writeFileSync(join(directory, 'script.json'), JSON.stringify(script));
  const config = join(directory, 'mcp-host.json');
  writeFileSync(
    config,
    JSON.stringify({
      model: 'scripted:./script.json',
      permissions: { allow: ['wrapped__*'] },
      mcpServers: {
        wrapped: {
          command: 'sh',
          // `; true` keeps the shell waiting as a wrapper instead of replacing itself with node.
          args: ['-c', '"$NODE" "$RECORDER" "$MARKER"; true', `wrapper-${marker}`],
          env: {
            NODE: process.execPath,
            RECORDER: faultFixture('recorder.mjs'),
            MARKER: marker,
            EVENT_LOG: eventLog,
            GRANDCHILD: grandchild,
            ...extraEnv,
          },
          timeoutMs: 60_000,
          tools: { hang: { timeoutMs: 250 } },
          ...serverExtra,
        },
      },
    }),
  );
  return { directory, eventLog, marker, config };
}

/**
 * How long to wait for a CLI and its servers to come up: starting processes on two busy shared cores can take
 * well over ten seconds. What is asserted afterwards does not depend on it.
 */
const START_WAIT_MS = 60_000;
/** Past the test's limit (180 s), as start-up delay and start-up timeout alike. */
const SLOW_START_MS = 600_000;

/** Waits for the wrapper, the server and the grandchild to be up (found by the marker on their command lines). */
async function waitForServerTree(setup: Setup): Promise<number> {
  await waitUntil(
    async () => (await processesWith(setup.marker)).length >= 3,
    'the server, wrapper and grandchild',
    START_WAIT_MS,
  );
  return (await processesWith(setup.marker)).length;
}

async function expectNothingLeft(setup: Setup): Promise<void> {
  await waitUntil(async () => (await processesWith(setup.marker)).length === 0, 'no process left behind', 5_000);
}

function lastCallId(setup: Setup, tool: string): string | undefined {
  const calls = eventLines(setup.eventLog).filter((line) => line.startsWith('call ') && line.includes(` ${tool} `));
  return calls.at(-1)?.split(' ')[1];
}

describe('the CLI leaves no process behind', { timeout: 180_000 }, () => {
  it('after a run that ends normally', async () => {
    const setup = setUp('ignore-stdin');
    expect(await processesWith(setup.marker)).toEqual([]);
    const cli = startCli(['run', 'ping', '--config', setup.config], setup.directory);
    const { code } = await cli.exit;
    expect(code, cli.output().stderr).toBe(0);
    expect(cli.output().stdout).toMatch(/answer: pong \d+/);
    await expectNothingLeft(setup);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`after ${signal} during a run: the call is cancelled at the server and the run ends cleanly`, async () => {
      const setup = setUp('ignore-stdin');
      const cli = startCli(['run', 'sleep', '--config', setup.config], setup.directory);
      await waitUntil(() => lastCallId(setup, 'sleep') !== undefined, 'the call to reach the server', START_WAIT_MS);
      const during = await waitForServerTree(setup);
      const signalled = performance.now();
      cli.child.kill(signal);
      const { code } = await cli.exit;
      console.info(
        `${signal} during a run: CLI exited ${Math.round(performance.now() - signalled)} ms after the signal`,
      );
      expect(code).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(cli.output().stderr).toContain(signal);
      expect(eventLines(setup.eventLog)).toContain(`cancelled ${lastCallId(setup, 'sleep')}`);
      console.info(`${signal} during a run: ${during} processes before, checking none after`);
      await expectNothingLeft(setup);
    });
  }

  it('after SIGINT during `tools call`', async () => {
    const setup = setUp('ignore-stdin');
    const cli = startCli(['tools', 'call', 'wrapped__sleep', 'ms=60000', '--config', setup.config], setup.directory);
    await waitUntil(() => lastCallId(setup, 'sleep') !== undefined, 'the call to reach the server', START_WAIT_MS);
    await waitForServerTree(setup);
    cli.child.kill('SIGINT');
    expect((await cli.exit).code).toBe(130);
    expect(eventLines(setup.eventLog)).toContain(`cancelled ${lastCallId(setup, 'sleep')}`);
    await expectNothingLeft(setup);
  });

  for (const [command, signal] of [
    [['servers'], 'SIGINT'],
    [['tools', 'list'], 'SIGTERM'],
  ] as const) {
    it(`after ${signal} while \`${command.join(' ')}\` is still starting its servers`, async () => {
      // A start-up far longer than the test may take: a command that waited for it fails the test by its limit.
      const setup = setUp(
        'ignore-stdin',
        { START_DELAY_MS: String(SLOW_START_MS) },
        { startupTimeoutMs: SLOW_START_MS },
      );
      const cli = startCli([...command, '--config', setup.config], setup.directory);
      await waitUntil(
        () => eventLines(setup.eventLog).some((line) => line.startsWith('waiting')),
        'start-up',
        START_WAIT_MS,
      );
      await waitForServerTree(setup);
      const before = performance.now();
      cli.child.kill(signal);
      expect((await cli.exit).code).toBe(signal === 'SIGINT' ? 130 : 143);
      console.info(`${command.join(' ')} ended ${Math.round(performance.now() - before)} ms after ${signal}`);
      await expectNothingLeft(setup);
    });
  }

  it('after SIGKILL of the host, except for a grandchild that ignores stdin', async () => {
    // Nothing in a host killed with SIGKILL runs: what ends the servers is their stdin closing.
    const watching = setUp('watch-parent');
    const ignoring = setUp('ignore-stdin');
    const clis = [watching, ignoring].map((setup) =>
      startCli(['run', 'sleep', '--config', setup.config], setup.directory),
    );
    for (const setup of [watching, ignoring]) {
      await waitUntil(() => lastCallId(setup, 'sleep') !== undefined, 'the call to reach the server', START_WAIT_MS);
      await waitForServerTree(setup);
    }
    for (const cli of clis) cli.child.kill('SIGKILL');
    await Promise.all(clis.map((cli) => cli.exit));

    // Wrapper, server (it exits when stdin closes) and a grandchild that follows its parent: gone within seconds.
    await expectNothingLeft(watching);
    // The same tree with a grandchild that ignores stdin: the wrapper and the server go, the grandchild stays.
    await waitUntil(
      async () => (await processesWith(ignoring.marker)).length === 1,
      'only the grandchild to remain',
      5_000,
    );
    const [orphan] = await processesWith(ignoring.marker);
    expect(orphan!.args).toContain('setInterval');
  });
});

describe('a host program that crashes', () => {
  it('takes its servers with it when it dies of an uncaught error', async () => {
    const setup = setUp('ignore-stdin');
    const child = spawn(process.execPath, [faultFixture('crashing-host.mjs'), setup.config], {
      cwd: setup.directory,
      env: { PATH: process.env.PATH ?? '', HOME: setup.directory, MCP_HOST_STATE_DIR: join(setup.directory, 'state') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    expect(stdout).toContain('ready connected');
    expect(code).toBe(1);
    expect(stderr).toContain('a bug in the host program');
    await expectNothingLeft(setup);
  });
});

describe('timeout settings from the command line and the config file', () => {
  it('uses the tool override from the file over --timeout, and --timeout over the server setting', async () => {
    const setup = setUp('ignore-stdin');
    const [byTool, byFlag] = await Promise.all([
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const cli = startCli(
          ['tools', 'call', 'wrapped__hang', '--timeout', '5000', '--config', setup.config],
          setup.directory,
        );
        void cli.exit.then(({ code }) => resolve({ code, stderr: cli.output().stderr }));
      }),
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const cli = startCli(
          ['tools', 'call', 'wrapped__sleep', 'ms=60000', '--timeout', '400', '--config', setup.config],
          setup.directory,
        );
        void cli.exit.then(({ code }) => resolve({ code, stderr: cli.output().stderr }));
      }),
    ]);
    expect(byTool.code).toBe(1);
    expect(byTool.stderr).toContain('timeout of 250 ms');
    expect(byFlag.code).toBe(1);
    expect(byFlag.stderr).toContain('timeout of 400 ms');
    await expectNothingLeft(setup);
  });
});
