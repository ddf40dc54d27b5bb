/**
 * After a timeout, a call is sent once more only when it is safe to retry: a trusted server's idempotent or
 * read-only tool. Any other call is never replayed (counted by the server).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/events.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, openFaultHost, resultText, waitUntil } from './fault-helpers.js';
import { createTurnProvider, toolCall } from './turn-provider.js';

afterEach(closeHosts);

const flaky = fixtureServerPath('idempotent-flaky');
/** Ends the first call of each tool, which never answers; the calls that do answer must beat it on a busy machine. */
const TIMEOUT_MS = 2_000;

describe('retrying a call that timed out', () => {
  it('retries a trusted idempotent tool once, and never replays one that is not idempotent', async () => {
    const provider = createTurnProvider([
      () => [toolCall('lookup', 'flaky__lookup', { key: 'k' }), toolCall('record', 'flaky__record', { entry: 'e' })],
      () => [{ type: 'text', text: 'done' }],
    ]);
    const host = await openFaultHost(
      hostConfig([stdioServer('flaky', [flaky], { trust: 'trusted', timeoutMs: TIMEOUT_MS })], {
        permissions: { allow: ['flaky__*'], ask: [], deny: [] },
      }),
      { provider },
    );
    const events: AgentEvent[] = [];
    await host.run('look up and record', { onEvent: (event) => events.push(event) });
    const ends = new Map(
      events.flatMap((event) => (event.type === 'tool-call-end' ? [[event.callId, event] as const] : [])),
    );
    expect(ends.get('lookup')?.outcome).toBe('ok');
    expect(resultText(ends.get('lookup')!.result)).toBe('value of k (call 2)');
    expect(ends.get('record')?.outcome).toBe('timeout');
    const warnings = events.filter((event) => event.type === 'tool-call-warning');
    expect(warnings.map((event) => event.callId)).toEqual(['lookup']);

    const counts = JSON.parse(resultText((await host.callTool('flaky__call_count', {})).result));
    expect(counts).toEqual({ lookup: 2, record: 1 });
    // The timed-out attempts were cancelled at the server.
    const stderr = () => host.connection('flaky')?.status().stderrTail ?? '';
    await waitUntil(() => (stderr().match(/^cancelled /gm) ?? []).length === 2, 'two cancellations');
  });

  it('does not retry a read-only tool of an untrusted server', async () => {
    const host = await openFaultHost(hostConfig([stdioServer('flaky', [flaky], { timeoutMs: TIMEOUT_MS })]));
    const call = await host.callTool('flaky__lookup', { key: 'k' });
    expect(call.outcome).toBe('timeout');
    expect(JSON.parse(resultText((await host.callTool('flaky__call_count', {})).result))).toEqual({
      lookup: 1,
      record: 0,
    });
  });
});
