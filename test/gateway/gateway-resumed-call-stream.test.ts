/**
 * A client of the HTTP gateway that never opens the standing GET stream, whose call's stream dropped and which resumed
 * it with a GET carrying `Last-Event-ID`: that GET answered with an event stream is no standing stream, so what the
 * server sends while the client has several calls in flight, and that is not known to be any one of them's, still
 * reaches it on one of its calls' streams (sent to a standing stream, it would never be seen). The official v2 SDK
 * client, its plain GETs answered 405 before they leave it and one call's stream dropped by the test, in front of the
 * built CLI and a real fixture server over stdio that logs outside any call.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWaitsAtGate } from '../helpers/call-waits-at-gate.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { textOf } from '../helpers/text-of.js';
import { AsksWhenToldBehindGateway } from './asks-when-told-behind-gateway.js';

const DROPPED_GATE = 'dropped';

describe('an HTTP gateway client without a standing stream that resumed a call’s stream', () => {
  const asks = new AsksWhenToldBehindGateway('resumed-call-stream', { sampling: {} });
  const { client, logs } = asks;
  /** The statuses of the GETs with `Last-Event-ID` the client sent (resuming a stream), and of those without. */
  const resumes: number[] = [];
  const refusedGets: string[] = [];
  let dropCallStream: (() => void) | undefined;

  const fetchDroppingOneCall: FetchLike = async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') {
      if (new Headers(init?.headers).get('last-event-id') === null) {
        refusedGets.push(String(url));
        return new Response(null, { status: 405 });
      }
      const response = await fetch(url, init);
      resumes.push(response.status);
      return response;
    }
    const dropper = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, dropper.signal]) : dropper.signal;
    if (typeof init?.body === 'string' && init.body.includes(`"gate":"${DROPPED_GATE}"`)) {
      dropCallStream = () => dropper.abort();
    }
    return fetch(url, { ...init, signal });
  };

  beforeAll(async () => {
    await asks.makeStateDir('mcp-host-resumed-call-stream-');
    await asks.start({
      server: asks.stdioServer(),
      permissions: { allow: ['asks__*'] },
      transport: { fetch: fetchDroppingOneCall },
    });
  }, 90_000);

  afterAll(() => asks.stop());

  it('hears once, on a call’s stream, a log message not known to be any one of its several calls', async () => {
    const dropped = client.callTool({ name: 'asks__wait', arguments: { gate: DROPPED_GATE } });
    await callWaitsAtGate(asks.eventLog, DROPPED_GATE);
    dropCallStream!();
    await waitUntil(() => resumes.length > 0, 'the client to resume its call’s stream');
    expect(resumes).toEqual([200]);
    expect(refusedGets.length).toBeGreaterThan(0);

    await asks.whileHeld(['first-held', 'second-held'], async () => {
      await client.callTool({ name: 'asks__log_aside', arguments: { message: 'after a resumed call stream' } });
      await waitUntil(() => logs.includes('after a resumed call stream'), 'the log message to reach the client');
    });
    expect(logs).toEqual(['after a resumed call stream']);

    await client.callTool({ name: 'asks__open', arguments: { gate: DROPPED_GATE } });
    expect(textOf(await dropped)).toBe('opened');
  }, 60_000);
});
