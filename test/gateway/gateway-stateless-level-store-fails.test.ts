/**
 * A stateless client's `logging/setLevel` whose keeping in the session's record fails (the store cannot be written)
 * is answered with the error, and still has the servers asked for the level, which the replica counts for the client
 * from then on. A gateway started in this process whose store reads but cannot replace a session's record, an
 * official v2 SDK client, the forwarding fixture server (which answers every level it was asked for).
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import type { SessionClaim } from '../../src/gateway/store/gateway-store.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { textOf } from '../helpers/text-of.js';
import { closeInProcessReplica, type InProcessReplica, startStatelessReplica } from './in-process-replica.js';

const TOKEN = 'a-level-store-fails-test-token';

/** A store whose records can be read and written whole, not replaced (as a store going away between the two). */
class StoreThatCannotReplace extends MemoryGatewayStore {
  override async replaceSession(): Promise<SessionClaim | undefined> {
    throw new Error('the store cannot be written');
  }
}

let replica: InProcessReplica | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await closeInProcessReplica(replica);
});

it('asks the servers for a level it could not keep in the session record', async () => {
  replica = await startStatelessReplica(
    { forwarding: { file: 'forwarding.mjs' } },
    { store: new StoreThatCannotReplace(), token: TOKEN, stateDirPrefix: 'mcp-host-level-store-fails-' },
  );
  client = new Client({ name: 'client-at-debug', version: '1.0.0' });
  await client.connect(bearerTransport(replica.gateway.url, TOKEN));

  await expect(client.setLoggingLevel('debug')).rejects.toThrow('the store cannot be written');
  expect(textOf(await client.callTool({ name: 'forwarding__levels_asked', arguments: {} }))).toBe('debug');
}, 60_000);
