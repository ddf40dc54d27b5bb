/**
 * A call whose request has the gateway's servers asked for a more verbose log level waits for the server it calls to
 * have been asked, not for every server: one that never answers the request (the held-level fixture server, which
 * holds its answer to `debug` until told) holds back no call to another. A 2026-07-28 request naming its level, and a
 * stateless client's request bringing the level its session's record keeps; gateways started in this process, official
 * v2 SDK clients, the forwarding fixture server beside the held one.
 */
import { Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { textOf } from '../helpers/text-of.js';
import { waitUntil } from '../helpers/wait-until.js';
import { closeInProcessReplica, type InProcessReplica, startInProcessReplica } from './in-process-replica.js';

const TOKEN = 'a-level-waits-for-own-server-test-token';

const replicas: InProcessReplica[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const replica of replicas.splice(0)) {
    // The held answers are given, so that closing does not wait for them.
    await releaseHeld(replica).catch(() => undefined);
    await closeInProcessReplica(replica);
  }
});

async function releaseHeld(replica: InProcessReplica): Promise<void> {
  await (await replica.hosts.get(undefined)).host.callTool('held__release_level', {});
}

/** Replicas sharing one store, each in front of the held and the forwarding servers. */
async function startReplicas(count: number, stateless: boolean): Promise<string[]> {
  const configPath = await writeFixtureServersConfig(
    { held: { file: 'held-level.mjs', env: { HOLD_LEVEL: 'debug' } }, forwarding: { file: 'forwarding.mjs' } },
    { fields: { gateway: { stateless, requestsPerMinute: 10_000 } } },
  );
  const store = new MemoryGatewayStore();
  for (let index = 0; index < count; index++) {
    replicas.push(
      await startInProcessReplica({ configPath, store, token: TOKEN, stateDirPrefix: `mcp-host-own-server-${index}-` }),
    );
  }
  return replicas.map((replica) => new URL(replica.gateway.url).origin);
}

/** A client whose requests go to the replica whose origin `to.origin` holds (a load balancer's choice). */
async function connected(to: { origin: string }, name: string, modern = false): Promise<Client> {
  const client = new Client(
    { name, version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const routing: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return fetch(`${to.origin}${url.pathname}${url.search}`, init);
  };
  await client.connect(bearerTransport(`${to.origin}/mcp`, TOKEN, { fetch: routing }));
  clients.push(client);
  return client;
}

const levelOfForwarding = async (client: Client) =>
  textOf(await client.callTool({ name: 'forwarding__log_level', arguments: {} }));

it('answers a 2026-07-28 call raising the level while another server has not answered it', async () => {
  const [origin] = await startReplicas(1, false);
  const strict = await connected({ origin: origin! }, 'strict-client');
  await strict.setLoggingLevel('error');
  const modern = await connected({ origin: origin! }, 'modern-client', true);

  const logged = await modern.callTool({
    name: 'forwarding__log',
    arguments: { level: 'debug', message: 'debug the request asked for' },
    _meta: { [LOG_LEVEL_META_KEY]: 'debug' },
  });
  expect(logged.isError).not.toBe(true);
  expect(await levelOfForwarding(strict)).toBe('debug');
}, 30_000);

it('answers a stateless call bringing its session’s level while another server has not answered it', async () => {
  const origins = await startReplicas(2, true);
  const route = { origin: origins[0]! };
  const verbose = await connected(route, 'verbose-client');
  // Kept in its session's record; the first replica's held server answers once told.
  const set = verbose.setLoggingLevel('debug');
  const first = (await replicas[0]!.hosts.get(undefined)).host;
  await waitUntil(
    async () => textOf((await first.callTool('held__levels_asked', {})).result) === 'debug',
    'the first replica’s held server to be asked for debug',
  );
  await releaseHeld(replicas[0]!);
  await set;

  // The second replica's servers were asked for errors only.
  const strict = await connected({ origin: origins[1]! }, 'strict-client');
  await strict.setLoggingLevel('error');
  route.origin = origins[1]!;
  expect(await levelOfForwarding(verbose)).toBe('debug');
}, 30_000);
