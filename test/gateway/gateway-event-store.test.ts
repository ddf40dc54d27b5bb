/**
 * Resumable event streams of `mcp-host serve --http`: a client whose standing event stream dropped opens it again with
 * `Last-Event-ID` and gets what the gateway sent meanwhile, over plain Streamable HTTP against the built CLI fronting a
 * real fixture server; and the store behind it keeps a bounded number of events and characters per session, and all
 * sessions' stores together a bounded number, the largest store giving up its oldest events first.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoundedEventStore, EventStorePool } from '../../src/gateway/bounded-event-store.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';

const TOKEN = 'an-event-store-test-token-of-enough-length';
const PROTOCOL_VERSION = '2025-11-25';

function notification(index: number): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `message ${index}` } };
}

async function replayed(store: BoundedEventStore, after: string): Promise<string[]> {
  const sent: string[] = [];
  await store.replayEventsAfter(after, {
    send: async (_id, message) => {
      sent.push(String((message as { params?: { data?: unknown } }).params?.data));
    },
  });
  return sent;
}

describe('the bounded event store', () => {
  it('replays the events of the same stream after the given one, without priming events', async () => {
    const store = new BoundedEventStore();
    const primed = await store.storeEvent('stream-a', {} as JSONRPCMessage);
    await store.storeEvent('stream-a', notification(1));
    await store.storeEvent('stream-b', notification(2));
    await store.storeEvent('stream-a', notification(3));
    expect(await replayed(store, primed)).toEqual(['message 1', 'message 3']);
    expect(await store.getStreamIdForEventId(primed)).toBe('stream-a');
  });

  it('drops the oldest events past its bounds, and an id it dropped resolves to no stream', async () => {
    const byCount = new BoundedEventStore(3, Number.MAX_SAFE_INTEGER);
    const first = await byCount.storeEvent('s', notification(1));
    const second = await byCount.storeEvent('s', notification(2));
    for (const index of [3, 4]) await byCount.storeEvent('s', notification(index));
    expect(await byCount.getStreamIdForEventId(first)).toBeUndefined();
    expect(await replayed(byCount, second)).toEqual(['message 3', 'message 4']);

    const size = JSON.stringify(notification(1)).length;
    const bySize = new BoundedEventStore(1_000, size * 2);
    const oldest = await bySize.storeEvent('s', notification(1));
    const kept = await bySize.storeEvent('s', notification(2));
    await bySize.storeEvent('s', notification(3));
    expect(await bySize.getStreamIdForEventId(oldest)).toBeUndefined();
    expect(await replayed(bySize, kept)).toEqual(['message 3']);
  });

  it('keeps all sessions together within the pool, dropping the oldest events of the largest store first', async () => {
    const size = JSON.stringify(notification(10)).length;
    const pool = new EventStorePool(1_000, size * 10);
    const [large, middle, small] = [0, 1, 2].map(() => new BoundedEventStore(1_000, Number.MAX_SAFE_INTEGER, pool));
    const largeIds: string[] = [];
    for (let index = 10; index < 16; index++) largeIds.push(await large!.storeEvent('s', notification(index)));
    const middleFirst = await middle!.storeEvent('s', notification(20));
    for (const index of [21, 22]) await middle!.storeEvent('s', notification(index));
    const smallFirst = await small!.storeEvent('s', notification(30));
    expect(pool.held).toEqual({ characters: size * 10, events: 10 });

    // One more event anywhere: the largest store (six events) gives up its oldest, even though another wrote.
    await small!.storeEvent('s', notification(31));
    expect(pool.held).toEqual({ characters: size * 10, events: 10 });
    expect(await large!.getStreamIdForEventId(largeIds[0]!)).toBeUndefined();
    expect(await large!.replayEventsAfter(largeIds[0]!, { send: async () => undefined })).toBe('');
    expect(await replayed(large!, largeIds[1]!)).toEqual(['message 12', 'message 13', 'message 14', 'message 15']);
    expect(await replayed(middle!, middleFirst)).toEqual(['message 21', 'message 22']);
    expect(await replayed(small!, smallFirst)).toEqual(['message 31']);

    // A closed session's events no longer count: the others keep theirs as they grow.
    large!.release();
    expect(pool.held).toEqual({ characters: size * 5, events: 5 });
    for (let index = 32; index < 37; index++) await small!.storeEvent('s', notification(index));
    expect(pool.held.characters).toBe(size * 10);
    expect(await replayed(middle!, middleFirst)).toEqual(['message 21', 'message 22']);
    expect(await small!.getStreamIdForEventId(smallFirst)).toBe('s');
    // A released store keeps nothing more, and nothing it is handed counts.
    await large!.storeEvent('s', notification(99));
    expect(pool.held.events).toBe(10);
  });

  it('drops by event count across sessions too, and keeps the newest event of the store that wrote it', async () => {
    const pool = new EventStorePool(4, Number.MAX_SAFE_INTEGER);
    const busy = new BoundedEventStore(1_000, Number.MAX_SAFE_INTEGER, pool);
    const quiet = new BoundedEventStore(1_000, Number.MAX_SAFE_INTEGER, pool);
    const quietFirst = await quiet.storeEvent('q', notification(1));
    for (let index = 2; index < 6; index++) await busy.storeEvent('b', notification(index));
    // Five events, four allowed: the busier store drops its oldest.
    expect(pool.held.events).toBe(4);
    expect(busy.eventCount).toBe(3);
    expect(await quiet.getStreamIdForEventId(quietFirst)).toBe('q');

    // An event larger than the whole pool: every other event goes, but the one just stored is kept.
    const tight = new EventStorePool(1_000, 10);
    const writer = new BoundedEventStore(1_000, Number.MAX_SAFE_INTEGER, tight);
    const other = new BoundedEventStore(1_000, Number.MAX_SAFE_INTEGER, tight);
    const otherId = await other.storeEvent('o', notification(1));
    const older = await writer.storeEvent('w', notification(2));
    const newest = await writer.storeEvent('w', notification(3));
    expect(await other.getStreamIdForEventId(otherId)).toBeUndefined();
    expect(await writer.getStreamIdForEventId(older)).toBeUndefined();
    expect(await writer.getStreamIdForEventId(newest)).toBe('w');
    expect(tight.held.events).toBe(1);
  });
});

describe('mcp-host serve --http', () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-event-store-state-');
    const config = await writeFixtureServersConfig({ memory: { file: 'session-memory.mjs' } });
    gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: TOKEN,
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it('lets a client resume its dropped event stream and get what was sent meanwhile', async () => {
    let sessionId = '';
    const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId === '' ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION }),
      ...extra,
    });
    let nextId = 1;
    const post = async (method: string, params: Record<string, unknown>, notify = false) => {
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ jsonrpc: '2.0', method, params, ...(notify ? {} : { id: nextId++ }) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} answered ${response.status}: ${text}`);
      return { response, text };
    };
    /** Opens the standing stream and keeps reading it until it is dropped. */
    const readStream = async (extra: Record<string, string> = {}) => {
      const controller = new AbortController();
      const response = await fetch(gateway.url, {
        method: 'GET',
        headers: { ...headers(extra), accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let received = '';
      const reading = (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            received += decoder.decode(value, { stream: true });
          }
        } catch {
          // Dropped on purpose.
        }
      })();
      return { received: () => received, drop: () => controller.abort(), reading };
    };

    const initialized = await post('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'resuming-test-client', version: '1.0.0' },
    });
    sessionId = initialized.response.headers.get('mcp-session-id') ?? '';
    expect(sessionId).not.toBe('');
    await post('notifications/initialized', {}, true);
    await post('resources/subscribe', { uri: 'note://resumed' });

    const first = await readStream();
    await post('tools/call', { name: 'memory__touch', arguments: {} });
    await waitUntil(() => first.received().includes('notifications/resources/updated'), 'the first update');
    const lastEventId = /^id: (\S+)$/m.exec(first.received())?.[1];
    expect(lastEventId).toBeDefined();
    first.drop();
    await first.reading;

    // Sent while no stream is open: kept by the store.
    await post('tools/call', { name: 'memory__touch', arguments: {} });
    await post('logging/setLevel', { level: 'debug' });
    // A log message of the client's call comes on the call's own response, which needs no standing stream.
    const logged = await post('tools/call', { name: 'memory__log', arguments: {} });
    expect(logged.text).toContain('debug-line');

    const resumed = await readStream({ 'last-event-id': lastEventId! });
    await waitUntil(() => resumed.received().includes('notifications/resources/updated'), 'the missed update');
    resumed.drop();
    await resumed.reading;
    // The event already received is not sent again.
    expect(resumed.received()).not.toContain(`id: ${lastEventId}\n`);
  }, 60_000);
});
