/**
 * A 2026-07-28 client's level counts for the level the gateway asks its servers for until it lapses unused, also when
 * its later requests ask for less: the servers are then asked again, once, and not up and down around its calls. A
 * replica started in this process, its clients' levels lasting two seconds, the official v2 SDK client pinned to the
 * revision in front of it, the forwarding fixture server (which answers every level it was asked for) behind it.
 */
import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { textOf } from '../helpers/text-of.js';
import { closeInProcessReplica, type InProcessReplica, startForwardingReplica } from './in-process-replica.js';

const TOKEN = 'a-modern-log-level-lapse-test-token';

let replica: InProcessReplica | undefined;
let client: Client | undefined;

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await closeInProcessReplica(replica);
});

it('has the servers asked again once the verbose level lapses, while the client goes on asking for errors', async () => {
  replica = await startForwardingReplica({
    token: TOKEN,
    stateDirPrefix: 'mcp-host-modern-level-lapse-',
    modernLevelKeptMs: 2_000,
  });
  client = new Client(
    { name: 'modern-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(replica.gateway.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  const levelsAsked = async (asking: string) =>
    textOf(
      await client!.callTool({
        name: 'forwarding__levels_asked',
        arguments: {},
        _meta: { [LOG_LEVEL_META_KEY]: asking },
      }),
    ).split(',');

  expect(await levelsAsked('debug')).toEqual(['debug']);
  // Asking for errors now, the client still counts for debug until that lapses; then the servers are asked for less,
  // once: errors when a request of the client's sees it lapse, info when the lapse is seen between its requests.
  await waitUntil(async () => (await levelsAsked('error')).at(-1) !== 'debug', 'the servers asked for less again');
  const asked = await levelsAsked('error');
  expect(asked).toHaveLength(2);
  expect(['error', 'info']).toContain(asked[1]);
}, 60_000);
