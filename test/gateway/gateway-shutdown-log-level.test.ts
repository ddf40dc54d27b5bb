/**
 * A gateway shutting down closes its profiles' sessions before its clients' connections: a debug client leaving then
 * has the servers asked for no level just before they stop. A gateway started in this process (stateful sessions), an
 * official v2 SDK client, and the forwarding fixture server, which answers every level it was asked for, asked through
 * the profile's host once the gateway is closed and before its servers stop.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { textOf } from '../helpers/text-of.js';
import { closeInProcessReplica, type InProcessReplica, startForwardingReplica } from './in-process-replica.js';

const TOKEN = 'a-shutdown-log-level-test-token';

let replica: InProcessReplica | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await closeInProcessReplica(replica);
});

it('asks the servers for no level as a debug client leaves at shutdown', async () => {
  replica = await startForwardingReplica({
    token: TOKEN,
    stateDirPrefix: 'mcp-host-shutdown-level-',
  });
  client = new Client({ name: 'client-at-debug', version: '1.0.0' });
  await client.connect(bearerTransport(replica.gateway.url, TOKEN));
  await client.setLoggingLevel('debug');

  await replica.gateway.close();
  const { host } = await replica.hosts.get(undefined);
  expect(textOf((await host.callTool('forwarding__levels_asked', {})).result)).toBe('debug');
}, 90_000);
