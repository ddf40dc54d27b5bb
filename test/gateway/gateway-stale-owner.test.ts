/**
 * A stateless gateway replica serves a relayed request only for a session it still owns. Three gateways in one
 * process share the memory store, each with its own copy of the counter fixture as a stateful server. A session opened
 * on A is taken over by B while A still listens; C, having read the record just before the takeover, relays the
 * session's next call to A. A declines it, C reads the record again and relays to B: the call runs on B's copy, not
 * on A's, so the session's state stays on one copy.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSession, type StoredSession } from '../../src/gateway/store/gateway-store.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { textOf } from '../helpers/text-of.js';
import { TallyReplicas } from './tally-replicas.js';

const TOKEN = 'a-stale-owner-test-token-of-enough-length';
const TTL_MS = 60_000;
const [A, B, C] = [0, 1, 2];

/** A memory store whose session reads answer the record as it was, then `change` rewrites it: a stale read. */
class StaleReadStore extends MemoryGatewayStore {
  private change: (() => Promise<unknown>) | undefined;
  private repeat = false;

  changeAfterNextRead(change: () => Promise<unknown>): void {
    this.change = change;
    this.repeat = false;
  }

  changeAfterEveryRead(change: () => Promise<unknown>): void {
    this.change = change;
    this.repeat = true;
  }

  stopChanging(): void {
    this.change = undefined;
  }

  override async getSession(id: string, ttlMs: number): Promise<StoredSession | undefined> {
    const read = await super.getSession(id, ttlMs);
    const change = this.change;
    if (!this.repeat) this.change = undefined;
    await change?.();
    return read;
  }
}

const store = new StaleReadStore();
const replicas = new TallyReplicas(store, TOKEN);

beforeAll(() => replicas.start(3, { stateDirPrefix: 'mcp-host-stale-owner-' }), 60_000);

afterAll(() => replicas.close());

/** A client opening its session on gateway `first`; `sendTo` picks the gateway of its later requests. */
async function clientOpenedOn(first: number): Promise<{
  client: Client;
  sendTo: (gateway: number) => void;
  session: () => Promise<{ id: string; record: StoredSession }>;
}> {
  let target = first;
  const { client, transport } = await replicas.connect('stale-owner-test-client', () => replicas.origins[target]!);
  return {
    client,
    sendTo: (gateway) => {
      target = gateway;
    },
    session: async () => {
      const id = transport.sessionId!;
      return { id, record: (await store.getSession(id, TTL_MS))! };
    },
  };
}

/** The calls the copy of the counter behind the session's current owner has run, for every session. */
async function callsCounted(client: Client): Promise<number> {
  const stats = await client.callTool({ name: 'tally__stats', arguments: {} });
  return (JSON.parse(textOf(stats)) as { calls: number }).calls;
}

describe('a session taken over while its old owner still listens', () => {
  it('is served by the new owner when a request is relayed to the old one', async () => {
    const opened = await clientOpenedOn(A);
    expect(textOf(await opened.client.callTool({ name: 'tally__echo', arguments: { text: 'on A' } }))).toBe('on A');
    const { id, record } = await opened.session();
    // Sessions opened on A and on B name each replica, and read A's and B's copies from then on.
    const onA = await clientOpenedOn(A);
    const onB = await clientOpenedOn(B);
    const replicaA = (await onA.session()).record.replica;
    const replicaB = (await onB.session()).record.replica;
    expect(record.replica).toBe(replicaA);
    expect(replicaB).not.toBe(replicaA);
    expect(await callsCounted(onA.client)).toBe(1);
    expect(await callsCounted(onB.client)).toBe(0);

    // C reads the record naming A; right after, B takes the session over (as B does when A seems stopped).
    store.changeAfterNextRead(() => claimSession(store, id, record, replicaB!, TTL_MS));
    opened.sendTo(C);
    const call = await opened.client.callTool({ name: 'tally__echo', arguments: { text: 'relayed to A' } });
    expect(textOf(call)).toBe('relayed to A');

    expect((await store.getSession(id, TTL_MS))?.replica).toBe(replicaB);
    expect(await callsCounted(onB.client)).toBe(1);
    expect(await callsCounted(onA.client)).toBe(1);
    // The session's own later calls reach B's copy too, from any gateway.
    opened.sendTo(A);
    await opened.client.callTool({ name: 'tally__echo', arguments: { text: 'sent to A' } });
    expect(await callsCounted(onB.client)).toBe(2);
    expect(await callsCounted(onA.client)).toBe(1);
  }, 60_000);

  it('gives up with an error naming the session when its owner changes at every look', async () => {
    const opened = await clientOpenedOn(A);
    const onB = await clientOpenedOn(B);
    const { id, record } = await opened.session();
    const replicaB = (await onB.session()).record.replica;
    const calledBefore = await callsCounted(onB.client);
    // Every read names one replica and leaves the record naming the other: A always finds B the owner and declines.
    let owner = record.replica;
    store.changeAfterEveryRead(() => {
      owner = owner === record.replica ? replicaB : record.replica;
      return store.putSession(id, { ...record, replica: owner! }, TTL_MS);
    });
    opened.sendTo(C);
    try {
      const call = opened.client.callTool({ name: 'tally__echo', arguments: { text: 'never served' } });
      await expect(call).rejects.toThrow(`no gateway replica answered for session ${id}`);
    } finally {
      store.stopChanging();
    }
    expect(await callsCounted(onB.client)).toBe(calledBefore);
  }, 60_000);
});
