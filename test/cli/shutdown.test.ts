/**
 * The real CLI closing servers that keep running after their stdin closes: every server gets SIGTERM together
 * with the end of its stdin (all servers at once), not after a grace period per server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '../../src/connections/process-group-stdio-transport.js';
import { fixtureServer, runCli, temporaryDirectory } from '../helpers/project.js';

describe('shutdown of servers that ignore stdin closing', () => {
  it('sends SIGTERM to every server as soon as the output is done', async () => {
    const directory = await temporaryDirectory();
    const logs = ['first', 'second'].map((name) => join(directory, `${name}.log`));
    const server = (log: string) => ({
      command: process.execPath,
      args: [fixtureServer('ignores-stdin-eof.mjs')],
      env: { EVENT_LOG: log },
    });
    const config = join(directory, 'mcp-host.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { first: server(logs[0]!), second: server(logs[1]!) } }));

    const result = await runCli(['tools', 'list', '--config', config], { cwd: directory, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('first__ping');
    expect(result.stdout).toContain('second__ping');
    for (const log of logs) {
      const sigterm = readFileSync(log, 'utf8')
        .split('\n')
        .find((line) => line.startsWith('sigterm '));
      expect(sigterm, `${log} records no SIGTERM`).toBeDefined();
      // Sent with the end of stdin, not after waiting the grace for the server to exit by itself.
      expect(Number(sigterm!.split(' ')[1])).toBeLessThan(DEFAULT_SHUTDOWN_GRACE_MS / 2);
    }
  }, 90_000);
});
