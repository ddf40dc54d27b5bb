/**
 * Calls that never answer: they fail at their timeout and the server is sent notifications/cancelled;
 * progress extends the timeout up to a hard maximum; the user's abort cancels calls in flight the same way;
 * timeouts come from the tool's override, then `--timeout` (toolTimeoutMs), then the server's setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, faultFixture, openFaultHost, resultText, waitUntil } from './fault-helpers.js';

// Hosts a describe shares stay open until the file ends; each stops its server then, also after a failure.
afterAll(closeHosts);

const hang = fixtureServerPath('hang');
/**
 * Far longer than any test here may take (their limit is the default 30 s): what runs on for it, a call the host
 * failed to stop, fails the test by the test's own limit.
 */
const LONG_MS = 120_000;
const recorder = faultFixture('recorder.mjs');

function stderrOf(host: Awaited<ReturnType<typeof openFaultHost>>, server: string): string {
  return host.connection(server)?.status().stderrTail ?? '';
}

/** The request id the hang fixture logged for the latest call of `tool`. */
function lastCallId(stderr: string, tool: string): string {
  const ids = [...stderr.matchAll(new RegExp(`^call (\\S+) ${tool}$`, 'gm'))].map((match) => match[1]!);
  if (ids.length === 0) throw new Error(`no call of ${tool} in stderr:\n${stderr}`);
  return ids.at(-1)!;
}

/** How many calls of `tool` the hang fixture has logged. */
function callCount(stderr: string, tool: string): number {
  return [...stderr.matchAll(new RegExp(`^call (\\S+) ${tool}$`, 'gm'))].length;
}

describe('a server that never answers', () => {
  /** A 500 ms timeout, which progress extends up to 2 s in all. */
  let host: Awaited<ReturnType<typeof openFaultHost>>;

  beforeAll(async () => {
    host = await openFaultHost(hostConfig([stdioServer('hang', [hang], { timeoutMs: 500, maxTotalTimeoutMs: 2_000 })]));
  });

  it('fails the call at its timeout and sends notifications/cancelled', async () => {
    const started = performance.now();
    const call = await host.callTool('hang__hang', {});
    const elapsed = performance.now() - started;
    console.info(`never answers: failed after ${Math.round(elapsed)} ms (timeout 500 ms)`);
    expect(call.outcome).toBe('timeout');
    expect(resultText(call.result)).toContain('timeout of 500 ms');
    // No sooner than the timeout; how much later depends on the machine. The server never answers: its 500 ms are
    // what ended the call, as its text says, and a call the timeout did not end fails the test by its limit.
    expect(elapsed).toBeGreaterThanOrEqual(450);
    const id = lastCallId(stderrOf(host, 'hang'), 'hang');
    await waitUntil(() => stderrOf(host, 'hang').includes(`cancelled ${id}`), 'the server to see the cancellation');
    // The connection is still usable afterwards.
    expect((await host.callTool('hang__slow_progress', { seconds: 0.3, intervalMs: 100 })).outcome).toBe('ok');
  });

  it('lets progress notifications extend the timeout, up to the hard maximum', async () => {
    // Progress every 200 ms keeps a 500 ms timeout alive for 1.2 s.
    const kept = await host.callTool('hang__slow_progress', { seconds: 1.2, intervalMs: 200 });
    expect(kept.outcome).toBe('ok');
    // Five at 200 ms; fewer when a busy machine runs the server's timer late, and lasting 1.2 s takes two at least.
    expect(resultText(kept.result)).toMatch(/^done after [2-6] progress notifications$/);

    // …but not past the hard maximum of 2 s: the tool would run on past the test's limit.
    const started = performance.now();
    const cut = await host.callTool('hang__slow_progress', { seconds: LONG_MS / 1_000, intervalMs: 200 });
    const elapsed = performance.now() - started;
    console.info(`progress call cut after ${Math.round(elapsed)} ms (hard maximum 2000 ms)`);
    expect(cut.outcome).toBe('timeout');
    expect(resultText(cut.result)).toContain('hard maximum of 2000 ms');
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    const id = lastCallId(stderrOf(host, 'hang'), 'slow_progress');
    await waitUntil(() => stderrOf(host, 'hang').includes(`cancelled ${id}`), 'the server to see the cancellation');
  });

  it('takes the timeout from the tool override, then toolTimeoutMs (--timeout), then the server', async () => {
    const overridden = await openFaultHost(
      hostConfig([stdioServer('slow', [recorder], { timeoutMs: 5_000, tools: { hang: { timeoutMs: 300 } } })]),
      { toolTimeoutMs: 600 },
    );
    const [byTool, byFlag] = await Promise.all([
      overridden.callTool('slow__hang', {}),
      overridden.callTool('slow__sleep', { ms: 60_000 }),
    ]);
    expect(resultText(byTool.result)).toContain('timeout of 300 ms');
    expect(resultText(byFlag.result)).toContain('timeout of 600 ms');

    const byServer = await openFaultHost(hostConfig([stdioServer('slow', [recorder], { timeoutMs: 400 })]));
    const call = await byServer.callTool('slow__sleep', { ms: 60_000 });
    expect(call.outcome).toBe('timeout');
    expect(resultText(call.result)).toContain('timeout of 400 ms');
  });
});

describe('the user aborts', () => {
  const provider = createScriptedProvider({
    scenarios: [
      {
        turns: [
          {
            toolCalls: [
              { id: 'a', name: 'hang__hang', arguments: {} },
              { id: 'b', name: 'hang__slow_progress', arguments: { seconds: LONG_MS / 1_000, intervalMs: LONG_MS } },
            ],
          },
          { text: 'never reached' },
        ],
      },
    ],
  });
  let host: Awaited<ReturnType<typeof openFaultHost>>;

  beforeAll(async () => {
    host = await openFaultHost(
      hostConfig([stdioServer('hang', [hang], { timeoutMs: LONG_MS })], {
        permissions: { allow: ['hang__*'], ask: [], deny: [] },
      }),
      { provider },
    );
  });

  it('cancels the calls in flight and ends the run cleanly', async () => {
    const abort = new AbortController();
    const events: AgentEvent[] = [];
    const running = host.run('wait forever', { signal: abort.signal, onEvent: (event) => events.push(event) });
    // Aborted once the server has both calls, so there is something to cancel at the server.
    await waitUntil(
      () => /^call \S+ hang$/m.test(stderrOf(host, 'hang')) && /^call \S+ slow_progress$/m.test(stderrOf(host, 'hang')),
      'the server to receive both calls',
    );
    const abortedAt = performance.now();
    abort.abort();
    const result = await running;
    const elapsed = performance.now() - abortedAt;
    console.info(`abort: run of 2 hanging calls ended ${Math.round(elapsed)} ms after the abort`);
    expect(result.stopReason).toBe('aborted');
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends.map((event) => event.outcome)).toEqual(['cancelled', 'cancelled']);
    for (const end of ends) expect(end.result.isError).toBe(true);
    // Both calls were cancelled at the server, not just dropped.
    const stderr = () => stderrOf(host, 'hang');
    const ids = [lastCallId(stderr(), 'hang'), lastCallId(stderr(), 'slow_progress')];
    await waitUntil(() => ids.every((id) => stderr().includes(`cancelled ${id}`)), 'both cancellations');
    // The model was not asked again after the abort.
    expect(provider.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', stopReason: 'aborted' });
  });

  it('cancels a direct call through its AbortSignal', async () => {
    const earlier = callCount(stderrOf(host, 'hang'), 'hang');
    const abort = new AbortController();
    const pending = host.callTool('hang__hang', {}, { signal: abort.signal });
    // Aborted once the server has the call, so the cancellation has something to cancel.
    await waitUntil(() => callCount(stderrOf(host, 'hang'), 'hang') > earlier, 'the server to receive the call');
    abort.abort();
    const call = await pending;
    expect(call.outcome).toBe('cancelled');
    expect(resultText(call.result)).toContain('cancelled');
    const id = lastCallId(stderrOf(host, 'hang'), 'hang');
    await waitUntil(() => stderrOf(host, 'hang').includes(`cancelled ${id}`), 'the server to see the cancellation');
  });
});
