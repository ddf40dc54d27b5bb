// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax, not a template mistake.
/**
 * Stateless gateway replicas sharing one real `redis-server` (started here on a free port, stopped in afterAll):
 * the store's contract (sessions, answers, messages between replicas, counts, a session claimed by compare-and-set)
 * holds in memory and in Redis; two `mcp-host serve` processes answer one client whose
 * requests alternate between them, and an approval asked on one replica is answered through the other.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSession, type GatewayStore } from '../../src/gateway/store/gateway-store.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { RedisGatewayStore } from '../../src/gateway/store/redis-store.js';
import { approvingClient } from '../helpers/approving-client.js';
import { auditRecords } from '../helpers/audit-records.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { trustedCalculatorConfig } from '../helpers/calculator-config.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { type RedisServer, startRedisServer, watchRedisCommands } from '../helpers/redis-server.js';

const TOKEN = 'a-shared-replica-token';
let redis: RedisServer | undefined;
let redisUrl: string;
const replicas: GatewayProcess[] = [];
const stateDirs: string[] = [];
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
  redisUrl = redis.url;

  const config = await trustedCalculatorConfig({
    permissions: { ask: ['calculator__multiply'] },
    gateway: {
      tokens: [{ name: 'team', token: '${env:REPLICA_TOKEN}' }],
      stateless: true,
      store: { type: 'redis', url: '${env:REPLICA_REDIS_URL}', keyPrefix: 'test-replicas:' },
    },
  });
  for (let index = 0; index < 2; index++) {
    const stateDir = await temporaryDirectory(`mcp-host-replica-${index}-`);
    stateDirs.push(stateDir);
    replicas.push(
      await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
        REPLICA_TOKEN: TOKEN,
        REPLICA_REDIS_URL: redisUrl,
      }),
    );
  }
}, 90_000);

afterAll(async () => {
  for (const item of opened) await item.close().catch(() => undefined);
  for (const replica of replicas) await replica.stop();
  await redis?.stop();
});

/**
 * Resolves once `store.waitForAnswer(key)` has looked for an answer posted before it and found none: an answer posted
 * after that reaches the waiter while it waits, rather than being found already there.
 */
type AnswerAwaited = (key: string) => Promise<void>;

/** The memory store's waiter is in place when `waitForAnswer` returns: it looks and registers without waiting. */
const memoryAnswerAwaited: AnswerAwaited = async () => {};

async function storeContract(store: GatewayStore, answerAwaited: AnswerAwaited): Promise<void> {
  const session = {
    owner: 'token:team',
    principal: 'team',
    clientInfo: { name: 'c' },
    capabilities: { elicitation: {} },
  };
  await store.putSession('s1', session, 60_000);
  expect(await store.getSession('s1', 60_000)).toEqual(session);
  await store.deleteSession('s1');
  expect(await store.getSession('s1', 60_000)).toBeUndefined();

  // An answer posted before anyone waits is kept; one posted while a waiter waits reaches it.
  await store.postAnswer('s1:early', '{"id":"early"}');
  expect(await store.waitForAnswer('s1:early', new AbortController().signal)).toBe('{"id":"early"}');
  const waiting = store.waitForAnswer('s1:late', new AbortController().signal);
  await answerAwaited('s1:late');
  await store.postAnswer('s1:late', '{"id":"late"}');
  expect(await waiting).toBe('{"id":"late"}');
  const controller = new AbortController();
  const abandoned = store.waitForAnswer('s1:never', controller.signal);
  controller.abort(new Error('gone'));
  await expect(abandoned).rejects.toThrow('gone');

  // Messages between replicas reach whoever listens, in order; publishing says how many did.
  const heard: string[] = [];
  const stop = await store.listen('relay-test', (message) => heard.push(message));
  expect(await store.publish('relay-test', 'one')).toBe(1);
  expect(await store.publish('relay-test', 'two')).toBe(1);
  await waitUntil(() => heard.length === 2, 'the published messages');
  expect(heard).toEqual(['one', 'two']);
  await stop();
  expect(await store.publish('relay-test', 'three')).toBe(0);

  const client = `client-${Math.random()}`;
  expect((await store.countRequest(client, 60_000)).count).toBe(1);
  const second = await store.countRequest(client, 60_000);
  expect(second.count).toBe(2);
  expect(second.resetInMs).toBeGreaterThan(0);
  expect(second.resetInMs).toBeLessThanOrEqual(60_000);
}

/**
 * Taking a session over is a compare-and-set: it writes only while the record is still the one read, and of two
 * claims made at once from the same read (through `one` and `two`, which may be one store) exactly one wins.
 */
async function claimContract(one: GatewayStore, two: GatewayStore): Promise<void> {
  const read = { owner: 'o', principal: 'p', clientInfo: { name: 'n' }, capabilities: { x: [] }, replica: 'gone' };
  await one.putSession('claimed', read, 60_000);
  const claims = await Promise.all([
    claimSession(one, 'claimed', read, 'replica-a', 60_000),
    claimSession(two, 'claimed', read, 'replica-b', 60_000),
  ]);
  expect(claims.map((claim) => claim?.won).sort()).toEqual([false, true]);
  const winner = claims.find((claim) => claim?.won)?.session.replica;
  expect(['replica-a', 'replica-b']).toContain(winner);
  // The loser learns who won, and the record names the winner with everything else kept.
  expect(claims.map((claim) => claim?.session)).toEqual([
    { ...read, replica: winner },
    { ...read, replica: winner },
  ]);
  expect(await two.getSession('claimed', 60_000)).toEqual({ ...read, replica: winner });

  // A claim from a record read before another replica's takeover changes nothing.
  const stale = await claimSession(one, 'claimed', read, 'replica-c', 60_000);
  expect(stale).toEqual({ won: false, session: { ...read, replica: winner } });
  expect((await one.getSession('claimed', 60_000))?.replica).toBe(winner);

  // A session ended meanwhile is not brought back by a claim.
  await two.deleteSession('claimed');
  expect(await claimSession(one, 'claimed', { ...read, replica: winner }, 'replica-c', 60_000)).toBeUndefined();
  expect(await one.getSession('claimed', 60_000)).toBeUndefined();
}

describe('gateway store', () => {
  it('keeps sessions, answers and counts in memory', async () => {
    await storeContract(new MemoryGatewayStore(), memoryAnswerAwaited);
  });

  it('lets exactly one of two replicas claim a session in memory', async () => {
    const store = new MemoryGatewayStore();
    await claimContract(store, store);
  });

  it('keeps sessions, answers and counts in Redis, shared between two connections', async () => {
    const one = await RedisGatewayStore.connect({ url: redisUrl, keyPrefix: 'contract:', onDiagnostic: () => {} });
    const two = await RedisGatewayStore.connect({ url: redisUrl, keyPrefix: 'contract:', onDiagnostic: () => {} });
    const commands = await watchRedisCommands(redisUrl);
    opened.push(one, two, commands);
    // The Redis store's waiter subscribes, then reads the answer's key: once the server has run that read, an answer
    // posted is one posted while it waits.
    const answerAwaited: AnswerAwaited = (key) => commands.ran(['GET', `contract:answer:${key}`]);
    await storeContract(one, answerAwaited);
    await two.putSession('shared', { owner: 'o', principal: 'p', clientInfo: { name: 'n' }, capabilities: {} }, 60_000);
    expect(await one.getSession('shared', 60_000)).toMatchObject({ owner: 'o' });
    const waiting = one.waitForAnswer('shared:answer', new AbortController().signal);
    await answerAwaited('shared:answer');
    await two.postAnswer('shared:answer', 'from the other one');
    expect(await waiting).toBe('from the other one');
  });

  it('lets exactly one of two replicas claim a session in Redis, each on its own connection', async () => {
    const one = await RedisGatewayStore.connect({ url: redisUrl, keyPrefix: 'claim:', onDiagnostic: () => {} });
    const two = await RedisGatewayStore.connect({ url: redisUrl, keyPrefix: 'claim:', onDiagnostic: () => {} });
    opened.push(one, two);
    await claimContract(one, two);
  });
});

describe('two stateless replicas sharing Redis', () => {
  it('serve one client whose requests alternate between them, approvals answered on the other replica', async () => {
    const [first, second] = replicas as [GatewayProcess, GatewayProcess];
    const origins = [new URL(first.url).origin, new URL(second.url).origin];
    const sent: Array<{ replica: number; kind: string }> = [];
    let next = 0;
    // A load balancer without affinity: each request goes to the other replica.
    const alternating: typeof fetch = async (input, init) => {
      const replica = next++ % 2;
      const url = new URL(input instanceof Request ? input.url : String(input));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      sent.push({
        replica,
        kind: String(body?.method ?? (body && 'result' in body ? 'answer' : (init?.method ?? 'GET'))),
      });
      return fetch(`${origins[replica]}${url.pathname}${url.search}`, init);
    };
    const { client, asked } = approvingClient('replica-test-client', {
      action: 'accept',
      content: { decision: 'allow-once' },
    });
    const transport = bearerTransport(first.url, TOKEN, { fetch: alternating });
    await client.connect(transport);
    opened.push(client);

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('calculator__add_numbers');
    for (let round = 0; round < 3; round++) {
      const sum = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: round, b: 40 } });
      expect(JSON.stringify(sum.content)).toContain(String(round + 40));
    }
    const product = await client.callTool({ name: 'calculator__multiply', arguments: { a: 6, b: 7 } });
    expect(product.isError).toBeFalsy();
    expect(JSON.stringify(product.content)).toContain('42');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('multiply');

    const calls = sent.filter((entry) => entry.kind === 'tools/call');
    expect(new Set(calls.map((entry) => entry.replica))).toEqual(new Set([0, 1]));
    const multiplyAt = sent.findLastIndex((entry) => entry.kind === 'tools/call');
    const answer = sent.slice(multiplyAt + 1).find((entry) => entry.kind === 'answer');
    expect(answer).toBeDefined();
    expect(answer?.replica).not.toBe(sent[multiplyAt]?.replica);

    // The call was run and audited by the replica that received it, with the approval it got through the other.
    const record = (await auditRecords(stateDirs[sent[multiplyAt]!.replica]!)).find(
      (entry) => entry.type === 'tool-call' && entry.tool === 'calculator__multiply',
    );
    expect(record).toMatchObject({
      decision: 'allow',
      approver: 'gateway-client',
      client: { name: 'replica-test-client', principal: 'team' },
    });

    // Ended through one replica, the session is gone for the other too.
    const sessionId = transport.sessionId;
    expect(sessionId).toBeDefined();
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId!,
      'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18',
      authorization: `Bearer ${TOKEN}`,
    };
    expect((await fetch(`${origins[1]}/mcp`, { method: 'DELETE', headers })).status).toBe(200);
    const after = await fetch(`${origins[0]}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  }, 90_000);
});

describe('the 2026-07-28 revision through two replicas', () => {
  it('answers stateless requests at whichever replica gets them, an approval asked by input_required', async () => {
    const origins = replicas.map((replica) => new URL(replica.url).origin);
    const sent: Array<{ replica: number; method: string; session: string | null }> = [];
    let next = 0;
    const alternating: typeof fetch = async (input, init) => {
      const replica = next++ % 2;
      const url = new URL(input instanceof Request ? input.url : String(input));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const headers = new Headers(init?.headers);
      sent.push({ replica, method: String(body?.method ?? init?.method), session: headers.get('mcp-session-id') });
      return fetch(`${origins[replica]}${url.pathname}${url.search}`, init);
    };
    const asked: string[] = [];
    const client = new Client(
      { name: 'modern-test-client', version: '2.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { decision: 'allow-once' } };
    });
    const transport = bearerTransport(`${origins[0]}/mcp`, TOKEN, { fetch: alternating });
    await client.connect(transport);
    opened.push(client);

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('calculator__multiply');
    const sum = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 2, b: 40 } });
    expect(JSON.stringify(sum.content)).toContain('42');
    const product = await client.callTool({ name: 'calculator__multiply', arguments: { a: 6, b: 7 } });
    expect(product.isError).toBeFalsy();
    expect(JSON.stringify(product.content)).toContain('42');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('multiply');

    // No handshake and no session: every request stands alone, and they were spread over both replicas.
    expect(sent.map((entry) => entry.method)).not.toContain('initialize');
    expect(sent.every((entry) => entry.session === null)).toBe(true);
    const multiplyCalls = sent.filter((entry) => entry.method === 'tools/call').slice(-2);
    expect(multiplyCalls).toHaveLength(2);
    expect(new Set(multiplyCalls.map((entry) => entry.replica))).toEqual(new Set([0, 1]));

    // The retry carrying the answer ran the call, audited once, with the client's identity.
    const records = (await Promise.all(stateDirs.map((dir) => auditRecords(dir))))
      .flat()
      .filter(
        (entry) =>
          entry.type === 'tool-call' &&
          entry.tool === 'calculator__multiply' &&
          (entry.client as { name?: string } | undefined)?.name === 'modern-test-client',
      );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      decision: 'allow',
      approver: 'gateway-client',
      client: { name: 'modern-test-client', version: '2.0.0', principal: 'team' },
    });
  }, 90_000);
});
