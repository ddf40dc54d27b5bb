/**
 * A stateless gateway's replicas each run their own servers, and each asks its servers for the most verbose log level
 * a client it knows set. A client that set its level on one replica is known to another by its session's record when
 * a request of its lands there: the servers there are asked for its level before its call, though another client
 * asked them for a more severe one, so it hears what it asked for wherever its calls land. Two gateways in this
 * process share the memory store, the forwarding fixture server behind each; official v2 SDK clients in front.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { type LoggingClient, loggingClient } from '../helpers/logging-client.js';
import { textOf } from '../helpers/text-of.js';
import { type InProcessReplica, startInProcessReplica } from './in-process-replica.js';

const TOKEN = 'a-replica-log-level-test-token';

const replicas: InProcessReplica[] = [];
const clients: Client[] = [];
let origins: string[] = [];

beforeAll(async () => {
  const configPath = await writeFixtureServersConfig(
    { forwarding: { file: 'forwarding.mjs' } },
    { fields: { gateway: { stateless: true, requestsPerMinute: 10_000 } } },
  );
  const store = new MemoryGatewayStore();
  for (let index = 0; index < 2; index++) {
    replicas.push(
      await startInProcessReplica({ configPath, store, token: TOKEN, stateDirPrefix: `mcp-host-level-${index}-` }),
    );
  }
  origins = replicas.map((replica) => new URL(replica.gateway.url).origin);
}, 90_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const replica of replicas) {
    await replica.gateway.close();
    await replica.hosts.close();
  }
});

interface RoutedClient extends LoggingClient {
  /** The replica its next requests go to. */
  to: number;
}

/** A client behind a load balancer that sends its requests to the replica `to` names. */
async function routedClient(name: string, to: number): Promise<RoutedClient> {
  const routed: RoutedClient = { ...loggingClient(name), to };
  const routing: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return fetch(`${origins[routed.to]}${url.pathname}${url.search}`, init);
  };
  clients.push(routed.client);
  await routed.client.connect(bearerTransport(`${origins[to]}/mcp`, TOKEN, { fetch: routing }));
  return routed;
}

const levelAsked = async (routed: RoutedClient) =>
  textOf(await routed.client.callTool({ name: 'forwarding__log_level', arguments: {} }));

describe('stateless replicas asking their servers for a log level', () => {
  it('ask theirs for the level of a client that set it on another replica, when its request lands there', async () => {
    const verbose = await routedClient('verbose-client', 0);
    await verbose.client.setLoggingLevel('debug');
    const strict = await routedClient('strict-client', 1);
    await strict.client.setLoggingLevel('error');
    // The second replica knows only the client that wants errors.
    expect(await levelAsked(strict)).toBe('error');

    verbose.to = 1;
    await verbose.client.callTool({
      name: 'forwarding__log',
      arguments: { level: 'debug', message: 'debug at the other replica' },
    });
    await verbose.client.callTool({ name: 'forwarding__log', arguments: { level: 'error', message: 'after' } });
    await waitUntil(() => verbose.logs.some((entry) => entry.data === 'after'), 'the later call’s message');
    // A call's messages come on its stream before its answer: the earlier call's would have come first.
    expect(verbose.logs.map((entry) => entry.data)).toEqual(['debug at the other replica', 'after']);
    expect(await levelAsked(strict)).toBe('debug');
    expect(strict.logs).toEqual([]);
  }, 60_000);
});
