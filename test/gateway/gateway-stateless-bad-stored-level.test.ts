/**
 * A stateless session's record in the shared store that keeps something other than an MCP log level (a store other
 * replicas, or whoever reaches it, write to) has its level ignored: the servers are not asked for it, and the gateway
 * says so on its diagnostics, naming the session, on one bounded line without the control codes the value held, once
 * however many requests read the record. A
 * gateway started in this process on a store the test writes to, an official v2 SDK client, the forwarding fixture
 * server (which answers every level it was asked for).
 */
import { Client, type LoggingLevel } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { textOf } from '../helpers/text-of.js';
import { closeInProcessReplica, type InProcessReplica, startStatelessReplica } from './in-process-replica.js';

const TOKEN = 'a-bad-stored-level-test-token';
const SESSION_TTL_MS = 60 * 60_000;
const BAD_LEVEL = `loud\u001b]0;retitled\u0007\u001b[2J${'x'.repeat(5_000)}`;

let replica: InProcessReplica | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await closeInProcessReplica(replica);
});

it('ignores a stored log level that is not one of MCP’s, and says so', async () => {
  const store = new MemoryGatewayStore();
  const diagnostics: string[] = [];
  replica = await startStatelessReplica(
    { forwarding: { file: 'forwarding.mjs' } },
    {
      store,
      token: TOKEN,
      stateDirPrefix: 'mcp-host-bad-stored-level-',
      onDiagnostic: (message) => diagnostics.push(message),
    },
  );
  client = new Client({ name: 'client-of-a-bad-record', version: '1.0.0' });
  const transport = bearerTransport(replica.gateway.url, TOKEN);
  await client.connect(transport);
  const sessionId = transport.sessionId!;
  const record = (await store.getSession(sessionId, SESSION_TTL_MS))!;
  await store.putSession(sessionId, { ...record, logLevel: BAD_LEVEL as LoggingLevel }, SESSION_TTL_MS);

  expect(textOf(await client.callTool({ name: 'forwarding__levels_asked', arguments: {} }))).toBe('');
  // Each request reads the record again: the same bad level is not said again for each.
  expect(textOf(await client.callTool({ name: 'forwarding__levels_asked', arguments: {} }))).toBe('');
  const told = diagnostics.filter((message) => message.includes(sessionId));
  expect(told).toHaveLength(1);
  expect(told[0]).toContain('loud');
  expect(told[0]).toContain('not one of MCP');
  expect(told[0]!.length).toBeLessThan(400);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the codes a terminal acts on are what this looks for.
  expect(told[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
}, 60_000);
