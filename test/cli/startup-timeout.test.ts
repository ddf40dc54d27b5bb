/** The real CLI with a server's own `startupTimeoutMs`: a slow server fails at its own limit, the others run. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory } from '../helpers/project.js';

/** Node's arguments for a program that runs and writes nothing, so never answers initialize. */
const RUNS_AND_NEVER_ANSWERS = ['-e', 'setInterval(() => {}, 1000)'];

/**
 * `mcp-host servers` with one server, `bare`, given 1 s to start: Node with `entry`'s arguments and folder, the config
 * in `directory` and `env` beside it. What the CLI wrote to stderr.
 */
async function neverAnswering(
  directory: string,
  entry: { args: string[]; cwd?: string },
  env: Record<string, string>,
): Promise<string> {
  const config = join(directory, 'mcp-host.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { bare: { command: process.execPath, ...entry, startupTimeoutMs: 1000 } } }),
  );
  const result = await runCliInProcess(['servers', '--config', config], { cwd: directory, env, timeoutMs: 60_000 });
  return result.stderr;
}

describe('startupTimeoutMs', () => {
  it('fails a server that does not finish initialize within its own startupTimeoutMs', async () => {
    const directory = await temporaryDirectory();
    const config = join(directory, 'mcp-host.json');
    const started = join(directory, 'started');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          slow: {
            command: process.execPath,
            args: [fixtureServerPath('slow-start')],
            env: { START_DELAY_MS: '120000', STARTED_FILE: started },
            startupTimeoutMs: 1500,
          },
          quick: { command: process.execPath, args: [fixtureServerPath('counter')], startupTimeoutMs: 60_000 },
        },
      }),
    );
    const result = await runCliInProcess(['tools', 'list', '--config', config], { cwd: directory, timeoutMs: 60_000 });
    expect(result.stderr).not.toContain('startupTimeoutMs: unknown');
    // The server ran, and what a person needs to tell a command that is no server from one that needs longer.
    const pid = Number(readFileSync(started, 'utf8'));
    expect(result.stderr).toContain(
      [
        `server "slow" failed to start: it started (pid ${pid}) and was still running, but did not answer initialize within 1.5 s, so the host stopped it; raise the server's \`startupTimeoutMs\` if it needs longer`,
        `command: ${process.execPath} ${fixtureServerPath('slow-start')} (in ${directory})`,
        'stderr tail:',
        'starting in 120000 ms',
      ].join('\n'),
    );
    expect(result.stdout).toContain('quick__echo');
    expect(result.code).toBe(0);
  }, 90_000);

  it('names the command line of a program that runs and never answers, with its secrets redacted, and its empty stderr', async () => {
    const directory = await temporaryDirectory();
    const stderr = await neverAnswering(
      directory,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
      { args: [...RUNS_AND_NEVER_ANSWERS, '${env:BARE_TOKEN}'] },
      { BARE_TOKEN: "it's-secret" },
    );
    expect(stderr).toMatch(
      /server "bare" failed to start: it started \(pid \d+\) and was still running, but did not answer initialize within 1 s/,
    );
    expect(stderr).toContain(
      `\ncommand: ${process.execPath} -e 'setInterval(() => {}, 1000)' [redacted] (in ${directory})\nstderr: nothing written`,
    );
    expect(stderr).not.toContain('secret');
  }, 90_000);

  it('names the working folder of a program that never answers with its secrets redacted, as its command line', async () => {
    const directory = await temporaryDirectory();
    mkdirSync(join(directory, "it's-secret"));
    const stderr = await neverAnswering(
      directory,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
      { args: RUNS_AND_NEVER_ANSWERS, cwd: '${env:FOLDER_TOKEN}' },
      { FOLDER_TOKEN: "it's-secret" },
    );
    expect(stderr).toContain(
      `\ncommand: ${process.execPath} -e 'setInterval(() => {}, 1000)' (in ${directory}/[redacted])\nstderr: nothing written`,
    );
    expect(stderr).not.toContain('secret');
  }, 90_000);

  it('rejects a startupTimeoutMs that is not a positive number of milliseconds', async () => {
    const directory = await temporaryDirectory();
    const config = join(directory, 'mcp-host.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { slow: { command: 'node', startupTimeoutMs: 'soon' } } }));
    const result = await runCliInProcess(['servers', '--config', config], { cwd: directory });
    expect(result.stderr).toContain(
      'mcpServers.slow.startupTimeoutMs: expected a positive whole number of milliseconds',
    );
    expect(result.code).toBe(2);
  });
});
