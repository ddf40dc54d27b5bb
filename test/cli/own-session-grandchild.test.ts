/**
 * The real CLI with a server whose grandchild and great-grandchild each start a session of their own (out of the
 * server's process group): at shutdown they are found by parent pid (/proc) and stopped with the server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, isAlive, runCli, temporaryDirectory } from '../helpers/project.js';

const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

async function waitUntilGone(pids: number[]): Promise<number[]> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (pids.every((pid) => !isAlive(pid))) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids.filter(isAlive);
}

describe.runIf(process.platform === 'linux')('descendants in sessions of their own', () => {
  it('are stopped when the CLI closes the server', async () => {
    const directory = await temporaryDirectory();
    const log = join(directory, 'events.log');
    writeFileSync(log, '');
    const config = join(directory, 'mcp-host.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          own: {
            command: process.execPath,
            args: [fixtureServer('own-session-grandchild.mjs')],
            env: { EVENT_LOG: log, MARKER: 'own-session-test' },
          },
        },
      }),
    );
    const result = await runCli(['tools', 'list', '--config', config], { cwd: directory, timeoutMs: 60_000 });
    const pids = [...readFileSync(log, 'utf8').matchAll(/grandchild (\d+)/g)].map((match) => Number(match[1]));
    started.push(...pids);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('own__ping');
    expect(pids).toHaveLength(2);
    expect(await waitUntilGone(pids)).toEqual([]);
  }, 90_000);
});
