/**
 * A server that dies in the middle of a call (an exit code, SIGKILL, or a wrapper whose grandchild keeps
 * stdout open): the pending call fails at once naming the server, how it ended and its stderr tail, where it waited
 * for its timeout (120 s here, far past each test's own limit); the other servers carry on; the server is restarted
 * for later calls; the failed call is never sent again.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import {
  closeHosts,
  eventLines,
  faultFixture,
  freshDirectory,
  killPids,
  openFaultHost,
  processesWith,
  resultText,
  uniqueMarker,
  waitUntil,
} from './fault-helpers.js';

afterEach(closeHosts);

const recorder = faultFixture('recorder.mjs');
/** Far longer than any test here may take: a call that waited for it fails the test by the test's own limit. */
const LONG_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 60_000;

/**
 * A host with the crashing server (the recorder, or `script` in front of it), and a second, well-behaved server
 * (`counter`) for the tests that use one.
 */
async function crashHost(
  eventLog: string,
  env: Record<string, string> = {},
  { withCounter = false, script = recorder } = {},
) {
  return openFaultHost(
    hostConfig([
      // `trusted` on purpose: even from a trusted server, a tool that is not idempotent is never replayed.
      stdioServer('crashy', [script], {
        env: { EVENT_LOG: eventLog, ...env },
        trust: 'trusted',
        timeoutMs: LONG_TIMEOUT_MS,
      }),
      ...(withCounter ? [stdioServer('counter', [fixtureServerPath('counter')])] : []),
    ]),
  );
}

/**
 * A host with the crashing server, which exits with code 8 before answering initialize at each start where `exitsIf`
 * holds: JavaScript in which `starts` is how many times it has been started, this start included. Returns the host
 * and the file that counts the starts, an `x` each.
 */
async function crashHostFailingToStart(directory: string, exitsIf: string) {
  const starts = join(directory, 'starts');
  const script = join(directory, 'fails-to-start.mjs');
  writeFileSync(
    script,
    [
      "import { appendFileSync, existsSync, readFileSync } from 'node:fs';",
      `appendFileSync(${JSON.stringify(starts)}, 'x');`,
      `const starts = readFileSync(${JSON.stringify(starts)}, 'utf8').length;`,
      `if (${exitsIf}) process.exit(8);`,
      `await import(${JSON.stringify(pathToFileURL(recorder).href)});`,
    ].join('\n'),
  );
  return { host: await crashHost(join(directory, 'events.log'), {}, { script }), starts };
}

describe('a server that exits mid-call', () => {
  for (const { tool, args, how } of [
    { tool: 'exit_mid_call', args: { code: 3 }, how: 'exited with code 3' },
    { tool: 'sigkill_mid_call', args: {}, how: 'was killed by SIGKILL' },
  ]) {
    it(
      `fails the pending call at once when it ${how}, restarts for later calls and never replays the call`,
      async () => {
        const eventLog = join(freshDirectory('mcp-host-crash-'), 'events.log');
        const host = await crashHost(eventLog, {}, { withCounter: true });
        const started = performance.now();
        // Another server's call in flight at the same time carries on.
        const [crashed, other] = await Promise.all([
          host.callTool(`crashy__${tool}`, args),
          host.callTool('counter__sleep', { ms: 300 }),
        ]);
        console.info(`crash (${how}) detected after ${Math.round(performance.now() - started)} ms`);
        expect(crashed.outcome).toBe('crashed');
        expect(crashed.result.isError).toBe(true);
        const text = resultText(crashed.result);
        expect(text).toContain('server "crashy"');
        expect(text).toContain(how);
        expect(text).toMatch(/stderr tail:[\s\S]*(in the middle of a call)/);
        // The exit the host reported as it happened is the one the call's failure tells.
        expect(text).toBe(`The tool call failed: ${crashed.serverExit?.description}`);
        expect(crashed.serverExit?.reason).toBe('crashed');
        expect(resultText(other.result)).toBe('slept 300 ms');

        const afterCrash = host.servers().find((server) => server.name === 'crashy');
        expect(afterCrash?.lastError).toContain(how);

        // A later call restarts the server (one restart) and succeeds.
        const later = await host.callTool('crashy__ping', {});
        expect(later.outcome).toBe('ok');
        const firstPid = Number(/^start (\d+)$/.exec(eventLines(eventLog)[0] ?? '')?.[1]);
        expect(resultText(later.result)).toMatch(/^pong \d+$/);
        expect(resultText(later.result)).not.toBe(`pong ${firstPid}`);
        const status = host.servers().find((server) => server.name === 'crashy');
        expect(status).toMatchObject({ state: 'connected', restarts: 1 });
        expect(status?.lastError).toContain(how);

        // Counted by the server across both processes: the crashing call arrived exactly once.
        const calls = eventLines(eventLog).filter((line) => line.startsWith('call '));
        expect(calls.filter((line) => line.includes(` ${tool} `))).toHaveLength(1);
        expect(eventLines(eventLog).filter((line) => line.startsWith('start '))).toHaveLength(2);
        expect(resultText((await host.callTool('counter__echo', { text: 'still here' })).result)).toBe('still here');
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    'fails the call at once even when a grandchild keeps the dead server’s stdout open',
    async () => {
      const directory = freshDirectory('mcp-host-crash-');
      const eventLog = join(directory, 'events.log');
      const marker = uniqueMarker('hold-stdio');
      const host = await crashHost(eventLog, { GRANDCHILD: 'hold-stdio', MARKER: marker });
      let grandchild: number | undefined;
      try {
        grandchild = Number(/^grandchild (\d+)$/m.exec(eventLines(eventLog).join('\n'))?.[1]);
        const started = performance.now();
        const crashed = await host.callTool('crashy__exit_mid_call', { code: 7 });
        console.info(`crash with stdout held open detected after ${Math.round(performance.now() - started)} ms`);
        expect(crashed.outcome).toBe('crashed');
        expect(resultText(crashed.result)).toContain('exited with code 7');
        // The orphan of the dead server went with it.
        await waitUntil(async () => (await processesWith(marker)).length === 0, 'the grandchild to be gone', 5_000);
      } finally {
        if (grandchild) killPids([grandchild]);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it('restarts a crashed server by itself after a backoff', async () => {
    const eventLog = join(freshDirectory('mcp-host-crash-'), 'events.log');
    const host = await crashHost(eventLog);
    await host.callTool('crashy__exit_mid_call', { code: 5 });
    const crashedAt = performance.now();
    const crashy = () => host.servers().find((server) => server.name === 'crashy');
    await waitUntil(() => crashy()?.state === 'connected', 'the restart');
    const restartedAfter = performance.now() - crashedAt;
    console.info(`restarted by itself ${Math.round(restartedAfter)} ms after the crash`);
    // The first backoff step is 500 ms.
    expect(restartedAfter).toBeGreaterThanOrEqual(400);
    expect(crashy()).toMatchObject({ restarts: 1 });
    expect(eventLines(eventLog).filter((line) => line.startsWith('start '))).toHaveLength(2);
  });

  it('keeps restarting a server that answers calls between its crashes, however many crashes it has had', async () => {
    const eventLog = join(freshDirectory('mcp-host-crash-'), 'events.log');
    const host = await crashHost(eventLog);
    // One more crash than the bound on restarts in a row: the answers between them show the server works.
    for (let crash = 1; crash <= 5; crash += 1) {
      const crashed = await host.callTool('crashy__exit_mid_call', { code: 6 });
      expect(crashed.outcome, resultText(crashed.result)).toBe('crashed');
      const answered = await host.callTool('crashy__ping', {});
      expect(answered.outcome, `after crash ${crash}: ${resultText(answered.result)}`).toBe('ok');
    }
    expect(host.servers().find((server) => server.name === 'crashy')).toMatchObject({
      state: 'connected',
      restarts: 5,
    });
  });

  it('tries again, after the backoff, a restart that failed to start the server', async () => {
    // Its second start, the first restart, fails.
    const { host, starts } = await crashHostFailingToStart(freshDirectory('mcp-host-crash-'), 'starts === 2');
    const crashed = await host.callTool('crashy__exit_mid_call', { code: 5 });
    expect(crashed.outcome, resultText(crashed.result)).toBe('crashed');
    const crashy = () => host.servers().find((server) => server.name === 'crashy');
    await waitUntil(() => crashy()?.state === 'connected' && crashy()?.restarts === 2, 'the second restart');
    const answered = await host.callTool('crashy__ping', {});
    expect(answered.outcome, resultText(answered.result)).toBe('ok');
    expect(readFileSync(starts, 'utf8')).toBe('xxx');
  });

  it('waits out the backoff after a restart that failed to start the server: calls meanwhile do not use up the restarts', async () => {
    const directory = freshDirectory('mcp-host-crash-');
    const down = join(directory, 'down');
    // A restart fails while the file `down` is there.
    const { host } = await crashHostFailingToStart(directory, `starts > 1 && existsSync(${JSON.stringify(down)})`);
    writeFileSync(down, '');
    const crashed = await host.callTool('crashy__exit_mid_call', { code: 5 });
    expect(crashed.outcome, resultText(crashed.result)).toBe('crashed');
    // A model trying its call again: the first restarts the crashed server at once, which fails to start; the others
    // fail without starting it, as many as there are restarts.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const refused = await host.callTool('crashy__ping', {});
      expect(refused.result.isError).toBe(true);
    }
    const crashy = () => host.servers().find((server) => server.name === 'crashy');
    expect(crashy()?.state).not.toBe('failed');
    rmSync(down);
    await waitUntil(() => crashy()?.state === 'connected', 'the restart after the backoff');
    const answered = await host.callTool('crashy__ping', {});
    expect(answered.outcome, resultText(answered.result)).toBe('ok');
  });

  it('gives up after the bounded number of restarts and says so', async () => {
    const eventLog = join(freshDirectory('mcp-host-crash-'), 'events.log');
    const host = await crashHost(eventLog);
    // Each call restarts the crashed server at once (a waiting call does not sit out the backoff).
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const crashed = await host.callTool('crashy__exit_mid_call', { code: 4 });
      expect(crashed.outcome, resultText(crashed.result)).toBe('crashed');
    }
    const refused = await host.callTool('crashy__ping', {});
    expect(refused.result.isError).toBe(true);
    expect(resultText(refused.result)).toContain('not restarted');
    const status = host.servers().find((server) => server.name === 'crashy');
    expect(status?.state).toBe('failed');
    expect(status?.restarts).toBe(3);
    expect(eventLines(eventLog).filter((line) => line.includes(' exit_mid_call '))).toHaveLength(4);
  });
});
