/**
 * Ctrl-C while servers are still starting: each one is reported as stopped, not as a server that "failed to
 * start (killed by SIGKILL)", and the CLI exits 130 with every server process gone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureServer, isAlive, startCli, temporaryDirectory } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

const started: number[] = [];

afterAll(() => {
  for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

describe('Ctrl-C during start-up', () => {
  it('says each server was stopped, not that it failed to start', async () => {
    const directory = await temporaryDirectory();
    const markers = ['first', 'second'].map((name) => join(directory, `${name}.started`));
    const server = (marker: string) => ({
      command: process.execPath,
      args: [fixtureServer('slow-start.mjs')],
      env: { START_DELAY_MS: '120000', STARTED_FILE: marker },
    });
    const config = join(directory, 'mcp-host.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { first: server(markers[0]!), second: server(markers[1]!) } }));

    const cli = startCli(['tools', 'list', '--config', config], { cwd: directory });
    const { child } = cli;
    started.push(child.pid!);
    try {
      await waitUntil(() => markers.every((marker) => existsSync(marker)), 'both servers to start', 60_000);
      const serverPids = markers.map((marker) => Number(readFileSync(marker, 'utf8').trim()));
      started.push(...serverPids);
      child.kill('SIGINT');
      const { code, stdout, stderr } = await cli.closed;

      expect(code, stderr).toBe(130);
      expect(stdout).toBe('');
      expect(stderr).toContain('server "first" stopped: start-up was interrupted');
      expect(stderr).toContain('server "second" stopped: start-up was interrupted');
      expect(stderr).not.toContain('failed to start');
      expect(stderr).not.toContain('killed by');
      for (const pid of serverPids) await waitUntil(() => !isAlive(pid), `server ${pid} to exit`, 10_000);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
