/**
 * `runCliInProcess` runs the command line inside the test worker as `runCli` runs it in a process: same exit codes,
 * stdout and stderr apart, stdin, the same clean environment and folder, and nothing left behind.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendantsOf } from '../../src/connections/process-tree.js';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, fixtureServer, repoRoot, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

const PROBE = 'MCP_HOST_IN_PROCESS_PROBE';

/** The worker's descendants and signal listeners, which a run must leave as it found them. */
function workerState() {
  return {
    children: descendantsOf(process.pid).map((child) => child.pid),
    signals: ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal)),
  };
}

describe('runCliInProcess', () => {
  it('gives what the real process gives for the same command line', async () => {
    const config = await calculatorConfig();
    const args = ['tools', 'call', 'calculator__multiply', 'a=6', 'b=7', '--config', config];
    const inProcess = await runCliInProcess(args);
    expect(inProcess).toEqual(await runCli(args));
    expect(inProcess).toEqual({ code: 0, stdout: '42\n', stderr: '' });
  }, 60_000);

  it('returns the exit code of a usage error, an error through reportError and an error result', async () => {
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await runCliInProcess(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });

    const usage = await runCliInProcess(['run', '--no-such-flag', 'x']);
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toMatch(/^mcp-host: unknown option '--no-such-flag'/);

    const directory = await temporaryDirectory();
    const bad = join(directory, 'bad.json');
    await writeFile(bad, JSON.stringify({ mcpServers: { calc: { command: 'node', timeoutMs: 'soon' } } }));
    const configError = await runCliInProcess(['tools', 'list', '--config', bad]);
    expect(configError).toMatchObject({ code: 2, stdout: '' });
    expect(configError.stderr).toContain('mcpServers.calc.timeoutMs');

    const config = await calculatorConfig();
    const failed = await runCliInProcess(['tools', 'call', 'calculator__divide', 'a=1', 'b=0', '--config', config]);
    expect(failed.code, failed.stderr).toBe(1);
    // The process's own exit code is untouched.
    expect(process.exitCode).toBeUndefined();
  }, 60_000);

  it('feeds `input` to stdin and keeps stdout and stderr apart', async () => {
    const config = await writeConfig({
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    });
    const before = workerState();
    const result = await runCliInProcess(['connect', '--config', config], {
      input: 'call counter__echo text=first\nbogus\nexit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('first\n');
    expect(result.stderr).toContain('unknown command "bogus"');
    expect(result.stderr).not.toContain('first');
    // The server it started is stopped, its signal handlers are gone, the worker's streams are its own again.
    expect(workerState()).toEqual(before);
    expect(process.stdout.write).toBeTypeOf('function');
    expect(process.stdin).not.toBe(undefined);
  }, 60_000);

  it('gives the command a clean environment of PATH, HOME, a state folder and `env`, in `cwd`', async () => {
    process.env[PROBE] = 'from the worker';
    const cwd = process.cwd();
    const directory = await temporaryDirectory();
    // A relative --config is found in `cwd`; its server's environment needs the variable.
    await writeFile(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        mcpServers: {
          calculator: {
            command: process.execPath,
            args: [exampleServer('calculator')],
            env: { PROBE: `\${${PROBE}}` },
          },
        },
      }),
    );
    try {
      const unset = await runCliInProcess(['servers', '--json', '--config', 'mcp-host.json'], { cwd: directory });
      expect(unset.stderr).toContain(PROBE);
      expect(unset.stderr).not.toContain('from the worker');

      const set = await runCliInProcess(['servers', '--json', '--config', 'mcp-host.json'], {
        cwd: directory,
        env: { [PROBE]: 'given' },
      });
      expect(set.code, set.stderr).toBe(0);
      expect(JSON.parse(set.stdout)).toMatchObject([{ name: 'calculator', state: 'connected' }]);

      expect(process.env[PROBE]).toBe('from the worker');
      expect(process.cwd()).toBe(cwd);
    } finally {
      delete process.env[PROBE];
    }
  }, 60_000);

  it('uses a fresh state folder per run unless `stateDir` is shared', async () => {
    const config = await calculatorConfig();
    const stateDir = join(await temporaryDirectory(), 'state');
    await mkdir(stateDir);
    await runCliInProcess(['tools', 'call', 'calculator__add_numbers', 'a=1', 'b=2', '--config', config], {
      stateDir,
    });
    const shared = await runCliInProcess(['audit', '--json', '--config', config], { stateDir });
    expect(shared.stdout).toContain('calculator__add_numbers');
    const fresh = await runCliInProcess(['audit', '--json', '--config', config]);
    expect(fresh.stdout).not.toContain('calculator__add_numbers');
  }, 60_000);

  it('fails a command that does not finish in `timeoutMs`, and stops it', async () => {
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    // The command's modules are loaded first, by a run that fails at once on a missing script, so the second of
    // the timed run goes to serving, not to loading them on a busy machine.
    expect((await runCliInProcess(['mock-llm', '--script', join(repoRoot, 'no-such-script.json')])).code).toBe(2);
    const before = workerState();
    await expect(runCliInProcess(['mock-llm', '--script', script], { timeoutMs: 1_000 })).rejects.toThrow(
      /did not finish in 1000 ms[\s\S]*\(the mock LLM; /,
    );
    expect(workerState()).toEqual(before);
  }, 60_000);

  it('runs calls made at once one after another', async () => {
    const results = await Promise.all([runCliInProcess(['--version']), runCliInProcess(['--no-such-option'])]);
    expect(results.map((result) => result.code)).toEqual([0, 2]);
    expect(results[1]?.stdout).toBe('');
  });
});
