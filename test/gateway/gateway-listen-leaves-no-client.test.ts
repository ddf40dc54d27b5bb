/**
 * A 2026-07-28 client's `subscriptions/listen` over HTTP leaves no client of the gateway behind once it ends: the SDK
 * makes a session server for the listen only to read its capabilities, and closes it without connecting it. A client
 * alone on the gateway then still hears, as the only client connected, what its server logs outside any call: here
 * the forwarding fixture server started again after it died (by the gateway, after its restart delay, with no call
 * in flight), which logs once it is initialized. A gateway started in this process, official v2 SDK clients.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type LoggingClient, loggingClient } from '../helpers/logging-client.js';
import { textOf } from '../helpers/text-of.js';
import { waitUntil } from '../helpers/wait-until.js';
import { closeInProcessReplica, type InProcessReplica, startInProcessReplica } from './in-process-replica.js';

const TOKEN = 'a-listen-leaves-no-client-test-token';
const STARTED = 'forwarding initialized';

let replica: InProcessReplica | undefined;
let modern: Client | undefined;
let alone: LoggingClient | undefined;

afterEach(async () => {
  await modern?.close().catch(() => undefined);
  await alone?.client.close().catch(() => undefined);
  await closeInProcessReplica(replica);
});

it('leaves a client alone on the gateway hearing its server outside calls after listens came and went', async () => {
  const configPath = await writeFixtureServersConfig({
    forwarding: { file: 'forwarding.mjs', env: { LOG_WHEN_INITIALIZED: STARTED } },
  });
  replica = await startInProcessReplica({
    configPath,
    store: new MemoryGatewayStore(),
    token: TOKEN,
    stateDirPrefix: 'mcp-host-listen-leaves-',
  });
  modern = new Client(
    { name: 'listening-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(bearerTransport(replica.gateway.url, TOKEN));
  for (let listens = 0; listens < 3; listens++) {
    const subscription = await modern.listen({ toolsListChanged: true });
    await subscription.close();
  }
  await modern.close();

  alone = loggingClient('client-alone');
  await alone.client.connect(bearerTransport(replica.gateway.url, TOKEN));
  const pid = Number(textOf(await alone.client.callTool({ name: 'forwarding__pid', arguments: {} })));
  process.kill(pid, 'SIGKILL');
  await waitUntil(
    () => alone!.logs.some((message) => message.data === STARTED),
    'the server started again to be heard by the only client',
  );
}, 60_000);
