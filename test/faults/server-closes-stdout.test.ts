/**
 * A stdio server that closes its stdout and keeps running (stdin open, no exit): no answer can come from it. The
 * requests waiting fail at once, saying so and naming the server, where each waited for its timeout (120 s here,
 * far past each test's own limit); at start-up this is said instead of a start-up timeout. The process is stopped,
 * not left running, and a server that did this mid-session is restarted as after a crash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer, isAlive, runCli, writeConfig } from '../helpers/project.js';
import {
  closeHosts,
  killPids,
  openFaultHost,
  processesWith,
  resultText,
  uniqueMarker,
  waitUntil,
} from './fault-helpers.js';

const closesStdout = fixtureServer('closes-stdout.mjs');
/** On each server's command line, to stop whatever a failing test leaves running. */
const marker = uniqueMarker('closes-stdout');
const serverArgs = [closesStdout, marker];
/** Far longer than any test here may take: a failure that waited for it fails the test by its own timeout. */
const LONG_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 60_000;

/** Pids the fixture reported on stderr (`pid <n>`), to make sure none is left running. */
function reportedPids(text: string): number[] {
  return [...text.matchAll(/^pid (\d+)$/gm)].map((match) => Number(match[1]));
}

afterEach(async () => {
  await closeHosts();
  killPids((await processesWith(marker)).map((entry) => entry.pid));
});

describe('a stdio server that closes its stdout and keeps running', () => {
  it(
    'fails the call waiting at once, naming the server, stops the process and restarts it for the next call',
    async () => {
      const host = await openFaultHost(
        hostConfig([stdioServer('co', serverArgs, { trust: 'trusted', timeoutMs: LONG_TIMEOUT_MS })]),
      );
      const pid = host.servers().find((server) => server.name === 'co')?.pid;
      expect(pid).toBeGreaterThan(0);

      const calledAt = performance.now();
      const call = await host.callTool('co__close_stdout', {});
      console.info(`call failed ${Math.round(performance.now() - calledAt)} ms after it was made`);
      expect(call.outcome).toBe('crashed');
      const text = resultText(call.result);
      expect(text).toContain(
        'server "co" closed its output (stdout) while still running, so no answer could come; the host closed the connection and stopped the process',
      );
      expect(text).toContain('closed stdout');

      // The fixture ignores the end of its stdin: only the host's signal stops it.
      await waitUntil(() => !isAlive(pid!), 'the server that closed its stdout to be stopped');
      const next = await host.callTool('co__ping', {});
      expect(resultText(next.result)).toBe('pong');
      const restarted = host.servers().find((server) => server.name === 'co')?.pid;
      expect(restarted).not.toBe(pid);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'says so at start-up instead of a start-up timeout, and leaves no process behind',
    async () => {
      const startedAt = performance.now();
      const host = await openFaultHost(
        hostConfig([
          stdioServer('co', serverArgs, { env: { CLOSE_STDOUT_AT_START: '1' }, startupTimeoutMs: LONG_TIMEOUT_MS }),
        ]),
      );
      console.info(`host ready with the start-up failure after ${Math.round(performance.now() - startedAt)} ms`);
      const failure = host.failures().find((entry) => entry.server === 'co')?.message ?? '';
      expect(failure).toContain(
        'server "co" failed to start: it closed its output (stdout) while still running, before answering initialize; the host stopped it',
      );
      expect(failure).not.toContain('did not finish initialize');
      const pids = reportedPids(failure);
      expect(pids).toHaveLength(1);
      expect(isAlive(pids[0]!)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'is told once by tools call, in the same words, and then how the call ended',
    async () => {
      const config = await writeConfig({
        mcpServers: {
          co: { command: process.execPath, args: serverArgs, trust: 'trusted', timeoutMs: LONG_TIMEOUT_MS },
        },
      });
      const result = await runCli(['tools', 'call', 'co__close_stdout', '--config', config], {
        timeoutMs: TEST_TIMEOUT_MS - 10_000,
      });
      // Said once, as it happened, and then how the call ended: the call's failure does not say it again.
      const told =
        'server "co" closed its output (stdout) while still running, so no answer could come; the host closed the connection and stopped the process; stderr tail:';
      expect(result.stderr.split(told)).toHaveLength(2);
      expect(result.stderr).toContain(`mcp-host: ${told}\n`);
      expect(result.stderr.split('closed stdout\n')).toHaveLength(2);
      expect(result.stderr.endsWith('mcp-host: the call failed: the connection to server "co" ended\n')).toBe(true);
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});
