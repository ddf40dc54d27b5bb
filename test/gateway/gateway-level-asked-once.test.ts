/**
 * A call whose client's kept log level has the servers asked for a more verbose one waits for the server it calls to
 * have been asked once, not asked again: a server that refuses the level (or never answers it) was asked a second time
 * before the call went, which for one that never answers doubled the wait. A gateway started in this process on a
 * store the test writes to (the record of a stateless session whose level another replica kept), an official v2 SDK
 * client, the refuses-level fixture server (which refuses every level and answers every level it was asked for).
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { textOf } from '../helpers/text-of.js';
import { closeInProcessReplica, type InProcessReplica, startStatelessReplica } from './in-process-replica.js';

const TOKEN = 'a-level-asked-once-test-token';
const SESSION_TTL_MS = 60 * 60_000;

let replica: InProcessReplica | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await closeInProcessReplica(replica);
});

it('asks the server a call goes to for the raised level once before the call', async () => {
  const store = new MemoryGatewayStore();
  replica = await startStatelessReplica(
    { refuser: { file: 'refuses-level.mjs' } },
    { store, token: TOKEN, stateDirPrefix: 'mcp-host-asked-once-' },
  );
  client = new Client({ name: 'client-of-a-kept-level', version: '1.0.0' });
  const transport = bearerTransport(replica.gateway.url, TOKEN);
  await client.connect(transport);
  const sessionId = transport.sessionId!;
  const record = (await store.getSession(sessionId, SESSION_TTL_MS))!;
  await store.putSession(sessionId, { ...record, logLevel: 'debug' }, SESSION_TTL_MS);

  expect(textOf(await client.callTool({ name: 'refuser__levels_asked', arguments: {} }))).toBe('debug');
}, 60_000);
