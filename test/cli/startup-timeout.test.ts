/** The real CLI with a server's own `startupTimeoutMs`: a slow server fails at its own limit, the others run. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory } from '../helpers/project.js';

describe('startupTimeoutMs', () => {
  it('fails a server that does not finish initialize within its own startupTimeoutMs', async () => {
    const directory = await temporaryDirectory();
    const config = join(directory, 'mcp-host.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          slow: {
            command: process.execPath,
            args: [fixtureServerPath('slow-start')],
            env: { START_DELAY_MS: '120000' },
            startupTimeoutMs: 1500,
          },
          quick: { command: process.execPath, args: [fixtureServerPath('counter')], startupTimeoutMs: 60_000 },
        },
      }),
    );
    const result = await runCliInProcess(['tools', 'list', '--config', config], { cwd: directory, timeoutMs: 60_000 });
    expect(result.stderr).not.toContain('startupTimeoutMs: unknown');
    expect(result.stderr).toContain('server "slow" failed to start');
    expect(result.stderr).toContain('did not finish initialize within 1500 ms');
    expect(result.stderr).toContain('startupTimeoutMs');
    expect(result.stdout).toContain('quick__echo');
    expect(result.code).toBe(0);
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
