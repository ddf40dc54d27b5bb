// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax, not a template mistake.
/**
 * Session affinity for stateful servers in a stateless gateway. Behind each replica runs its own copy of the counter
 * fixture twice: `tally` marked `"stateful": true`, `loose` not. One client whose requests alternate between two
 * replicas sees `tally` count every call it made (its calls all reach the copy of the replica that opened the
 * session, relayed through the store when they land elsewhere, an approval included), while `loose` counts only the
 * calls that landed on one replica. When the owning replica stops, the other takes the session over with its own
 * copy. Two `mcp-host serve` processes share a real `redis-server` (when an owner dies, the gateway relaying to it
 * runs in this process, probing the owner more often than the default so the test does not wait seconds); two
 * gateways in one process share the memory store.
 */
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHosts } from '../../src/gateway/gateway-hosts.js';
import type { GatewayHttp } from '../../src/gateway/gateway-http.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { RedisGatewayStore } from '../../src/gateway/store/redis-store.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { approvingClient } from '../helpers/approving-client.js';
import { auditRecords } from '../helpers/audit-records.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { textOf } from '../helpers/text-of.js';
import { startInProcessReplica } from './in-process-replica.js';

const TOKEN = 'an-affinity-test-token-of-enough-length';
const counter = { command: process.execPath, args: [fixtureServerPath('counter')], trust: 'trusted' };
const SERVERS = { tally: { ...counter, stateful: true }, loose: counter };

let redis: RedisServer | undefined;
const processes: GatewayProcess[] = [];
const processStateDirs: string[] = [];
const toClose: Array<{ close(): Promise<void> }> = [];
let configPath: string;
const replicaEnv = (): Record<string, string> => ({ AFFINITY_TOKEN: TOKEN, AFFINITY_REDIS_URL: redis!.url });

async function startReplica(name: string): Promise<GatewayProcess> {
  const stateDir = await temporaryDirectory(`mcp-host-affinity-${name}-`);
  processStateDirs.push(stateDir);
  const replica = await startGatewayProcess(['--config', configPath, '--state-dir', stateDir], replicaEnv());
  processes.push(replica);
  return replica;
}

beforeAll(async () => {
  redis = await startRedisServer();
  configPath = await writeConfig({
    mcpServers: SERVERS,
    permissions: { ask: ['tally__sleep'] },
    gateway: {
      tokens: [{ name: 'team', token: '${env:AFFINITY_TOKEN}' }],
      stateless: true,
      store: { type: 'redis', url: '${env:AFFINITY_REDIS_URL}', keyPrefix: 'test-affinity:' },
    },
  });
  for (let index = 0; index < 2; index++) await startReplica(String(index));
}, 90_000);

afterAll(async () => {
  for (const item of toClose.reverse()) await item.close().catch(() => undefined);
  for (const replica of processes) await replica.stop();
  await redis?.stop();
});

interface Sent {
  replica: number;
  method: string;
}

/** A client behind a load balancer without affinity: each request goes to the next of `origins()`. */
async function alternatingClient(origins: () => string[]): Promise<{
  client: Client;
  sent: Sent[];
  asked: string[];
  nextReplica: () => number;
  sessionId: () => string | undefined;
}> {
  const sent: Sent[] = [];
  let next = 0;
  const alternating: typeof fetch = async (input, init) => {
    const targets = origins();
    const replica = next++ % targets.length;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    sent.push({ replica, method: String(body?.method ?? (body && 'result' in body ? 'answer' : init?.method)) });
    return fetch(`${targets[replica]}${url.pathname}${url.search}`, init);
  };
  const { client, asked } = approvingClient('affinity-test-client', {
    action: 'accept',
    content: { decision: 'allow-once' },
  });
  const transport = bearerTransport(`${origins()[0]}/mcp`, TOKEN, { fetch: alternating });
  await client.connect(transport);
  toClose.push(client);
  return { client, sent, asked, nextReplica: () => next % origins().length, sessionId: () => transport.sessionId };
}

async function callsCounted(client: Client, server: string): Promise<number> {
  const stats = await client.callTool({ name: `${server}__stats`, arguments: {} });
  return (JSON.parse(textOf(stats)) as { calls: number }).calls;
}

/** Four calls to each copy, alternating replicas: `tally` counts them all, `loose` the half one replica got. */
async function expectAffinity(client: Client, sent: Sent[]): Promise<void> {
  for (let round = 0; round < 4; round++) {
    expect(textOf(await client.callTool({ name: 'loose__echo', arguments: { text: `loose ${round}` } }))).toBe(
      `loose ${round}`,
    );
  }
  const tallyFrom = sent.length;
  for (let round = 0; round < 4; round++) {
    expect(textOf(await client.callTool({ name: 'tally__echo', arguments: { text: `tally ${round}` } }))).toBe(
      `tally ${round}`,
    );
  }
  // The tally calls did arrive at both replicas.
  const tallyCalls = sent.slice(tallyFrom).filter((entry) => entry.method === 'tools/call');
  expect(new Set(tallyCalls.map((entry) => entry.replica))).toEqual(new Set([0, 1]));
  expect(await callsCounted(client, 'tally')).toBe(4);
  expect(await callsCounted(client, 'loose')).toBe(2);
}

async function auditedTools(stateDir: string): Promise<Array<Record<string, unknown>>> {
  return (await auditRecords(stateDir)).filter((entry) => entry.type === 'tool-call');
}

describe('a stateful server behind stateless replicas sharing Redis', () => {
  it('keeps one session on the copy of the replica that opened it, and moves it when that replica stops', async () => {
    const origins = processes.map((replica) => new URL(replica.url).origin);
    let reachable = origins;
    const { client, sent, asked, nextReplica } = await alternatingClient(() => reachable);
    expect(sent[0]).toEqual({ replica: 0, method: 'initialize' });
    await expectAffinity(client, sent);

    // An approval asked by the owner during a relayed call is answered through the store, from either replica.
    if (nextReplica() === 0) await client.ping();
    const slept = await client.callTool({ name: 'tally__sleep', arguments: { ms: 1 } });
    expect(textOf(slept)).toBe('slept 1 ms');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('tally__sleep');
    expect(sent.findLast((entry) => entry.method === 'tools/call')?.replica).toBe(1);

    // Every tally call was run and audited by the owner, with the client's identity.
    const owner = (await auditedTools(processStateDirs[0]!)).filter((entry) =>
      String(entry.tool).startsWith('tally__'),
    );
    expect(owner.filter((entry) => entry.tool === 'tally__echo')).toHaveLength(4);
    expect(owner.find((entry) => entry.tool === 'tally__sleep')).toMatchObject({
      decision: 'allow',
      approver: 'gateway-client',
      client: { name: 'affinity-test-client', principal: 'team' },
    });
    const other = await auditedTools(processStateDirs[1]!);
    expect(other.filter((entry) => String(entry.tool).startsWith('tally__'))).toEqual([]);
    expect(other.filter((entry) => entry.tool === 'loose__echo').length).toBeGreaterThan(0);

    // The owner stops: the other replica takes the session over, with its own copy's state from then on.
    await processes[0]!.stop();
    reachable = [origins[1]!];
    await client.callTool({ name: 'tally__echo', arguments: { text: 'after' } });
    expect(await callsCounted(client, 'tally')).toBe(1);
    await client.callTool({ name: 'tally__echo', arguments: { text: 'again' } });
    expect(await callsCounted(client, 'tally')).toBe(2);
    expect(processes[1]!.stderr()).toContain('taken over by this replica');
  }, 120_000);

  it('fails a relayed call with a clear error when the owning replica dies without answering', async () => {
    const owner = await startReplica('dying-owner');
    const store = await RedisGatewayStore.connect({
      url: redis!.url,
      keyPrefix: 'test-affinity:',
      onDiagnostic: () => undefined,
    });
    toClose.push(store);
    const relaying = await startInProcessReplica({
      configPath,
      store,
      token: TOKEN,
      stateDirPrefix: 'mcp-host-affinity-relaying-',
      env: { ...process.env, ...replicaEnv() },
      relayLivenessIntervalMs: 200,
    });
    toClose.push(relaying.hosts, relaying.gateway);
    const origins = [owner.url, relaying.gateway.url].map((url) => new URL(url).origin);
    const { client, sent, asked, nextReplica } = await alternatingClient(() => origins);
    expect(sent[0]).toEqual({ replica: 0, method: 'initialize' });
    if (nextReplica() === 0) await client.ping();
    const sentBefore = sent.length;
    const call = client.callTool({ name: 'tally__sleep', arguments: { ms: 30_000 } });
    const outcome = call.then(
      () => 'answered',
      (error: unknown) => String(error),
    );
    // Shorter than the client's own request timeout (60 s), so only the relay's liveness check can end the call in
    // time.
    // The approval was asked by the owner: the call reached it through the relay and now sleeps there.
    await waitUntil(() => asked.length === 1, 'the owner to ask for approval');
    await waitUntil(async () => {
      const stats = await client.callTool({ name: 'tally__stats', arguments: {} });
      return (JSON.parse(textOf(stats)) as { inFlight: number }).inFlight === 1;
    }, 'the owner’s copy to be running the call');
    // The sleeping call's request, not the last tools/call: the stats calls of the wait go to either replica.
    expect(sent.slice(sentBefore).find((entry) => entry.method === 'tools/call')?.replica).toBe(1);
    // SIGKILL leaves the owner's server copies running (each has a process group of its own): end them afterwards.
    const orphans = childPids(owner.child.pid);
    const exited = new Promise((resolve) => owner.child.once('exit', resolve));
    owner.child.kill('SIGKILL');
    try {
      await exited;
      expect(await outcome).toContain(`the gateway replica`);
      expect(await outcome).toContain('owning this session stopped answering');
    } finally {
      for (const pid of orphans) killIfRunning(pid);
    }
  }, 120_000);
});

/**
 * A memory store whose next `claims` writes of a session's record (a claim is one) wait for each other, so they are
 * made at the same moment.
 */
class GatheringStore extends MemoryGatewayStore {
  private waiting: Array<() => void> = [];
  private gathering = 0;

  gatherClaims(claims: number): void {
    this.gathering = claims;
  }

  override async replaceSession(...args: Parameters<MemoryGatewayStore['replaceSession']>) {
    if (this.gathering > 0) {
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        if (this.waiting.length < this.gathering) return;
        this.gathering = 0;
        for (const release of this.waiting.splice(0)) release();
      });
    }
    return super.replaceSession(...args);
  }
}

describe('a stateful server behind two gateways sharing the memory store', () => {
  const hosts: GatewayHosts[] = [];
  const gateways: GatewayHttp[] = [];
  const diagnostics: string[][] = [];
  const stateDirs: string[] = [];
  const store = new GatheringStore();
  let origins: string[] = [];

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    for (const host of hosts) await host.close();
  });

  beforeAll(async () => {
    const configPath = await writeConfig({ mcpServers: SERVERS, gateway: { stateless: true } });
    toClose.push(store);
    for (let index = 0; index < 2; index++) {
      const said: string[] = [];
      diagnostics.push(said);
      const replica = await startInProcessReplica({
        configPath,
        store,
        token: TOKEN,
        stateDirPrefix: `mcp-host-affinity-memory-${index}-`,
        onDiagnostic: (message) => said.push(message),
      });
      stateDirs.push(replica.stateDir);
      hosts.push(replica.hosts);
      gateways.push(replica.gateway);
    }
    origins = gateways.map((gateway) => new URL(gateway.url).origin);
  }, 60_000);

  it('relays one session’s stateful calls to the gateway that opened it', async () => {
    const { client, sent } = await alternatingClient(() => origins);
    await expectAffinity(client, sent);
  }, 90_000);

  it('lets one of two gateways taking a stopped owner’s session over at once win; the other relays to it', async () => {
    const { client, sessionId } = await alternatingClient(() => origins);
    await client.listTools();
    // The replica the record names answers no more, as if it had stopped.
    const id = sessionId()!;
    const record = (await store.getSession(id, 60_000))!;
    await store.putSession(id, { ...record, replica: 'a-stopped-replica' }, 60_000);
    const tallyEchoes = async (): Promise<number[]> =>
      Promise.all(
        stateDirs.map(
          async (dir) =>
            (await auditedTools(dir)).filter(
              (entry) => entry.tool === 'tally__echo' && JSON.stringify(entry).includes(id),
            ).length,
        ),
      );
    expect(await tallyEchoes()).toEqual([0, 0]);

    store.gatherClaims(2);
    const calls = await Promise.all(
      ['race one', 'race two'].map((text) => client.callTool({ name: 'tally__echo', arguments: { text } })),
    );
    expect(calls.map(textOf)).toEqual(['race one', 'race two']);

    const takeovers = diagnostics.map((said) => said.filter((line) => line.includes(`session ${id} taken over`)));
    expect(takeovers.map((lines) => lines.length).sort()).toEqual([0, 1]);
    const winner = takeovers.findIndex((lines) => lines.length === 1);
    expect((await store.getSession(id, 60_000))?.replica).not.toBe('a-stopped-replica');
    // Both calls ran on the winner's copy of the server, the loser's one relayed there.
    await waitUntil(async () => (await tallyEchoes()).reduce((sum, count) => sum + count, 0) === 2, 'the audit');
    expect(await tallyEchoes()).toEqual(winner === 0 ? [2, 0] : [0, 2]);
  }, 90_000);
});

/** The direct children of a process, read from Linux's /proc (empty where that file does not exist). */
function childPids(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function killIfRunning(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
