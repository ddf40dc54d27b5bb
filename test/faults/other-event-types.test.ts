/**
 * An event of another type than `message` on a remote server's stream is passed over by the client library, whatever
 * its data says: one whose data is an answer to a pending call neither takes that call from those the host waits for
 * (a later invalid answer for it then fails it at once, where it was taken for a stray and the call waited for its
 * timeout), nor, nested too deep, gets an error answer of the host's in its place.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/connections/create-transport.js';
import { startOversizedServer } from '../fixtures/faults/oversized-http-server.js';
import { httpServer } from '../helpers/configs.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

const ping = (data: string) => `event: ping\ndata: ${data}`;
const VALID = '{"jsonrpc":"2.0","id":"$ID","result":{"content":[{"type":"text","text":"from a ping"}]}}';
const INVALID = '{"jsonrpc":"2.0","id":"$ID","error":{"code":"oops","message":"bad"}}';
const DEEP = `{"jsonrpc":"2.0","id":"$ID","result":{"content":[],"structuredContent":{"v":${'['.repeat(200)}${']'.repeat(200)}}}}`;
const ANSWERED = '{"jsonrpc":"2.0","id":"$ID","result":{"content":[{"type":"text","text":"answered"}]}}';
const REFUSED = "the server's answer to tools/call is not valid JSON-RPC: the error's code is a string, not a number";

async function connect(url: string): Promise<{ client: Client; diagnostics: string[] }> {
  const diagnostics: string[] = [];
  const { client } = await createTransport(httpServer('remote', url), {
    connectTimeoutMs: 10_000,
    clientInfo: { name: 'other-event-types-test', version: '1.0.0' },
    onDiagnostic: (message) => diagnostics.push(message),
    onToolsChanged: () => undefined,
  });
  clients.push(client);
  return { client, diagnostics };
}

/** The call's text, or its error's message; a call left to its timeout fails well within the test's. */
async function outcome(client: Client, name: string, events: string[]): Promise<string> {
  return client.callTool({ name, arguments: { events } }, { timeout: 10_000 }).then(
    (result) => JSON.stringify(result.content),
    (error: Error) => error.message,
  );
}

describe.each(['raw_standing', 'raw_sse'])('an event of another type than message, by %s', (tool) => {
  it('naming a pending call leaves it pending, so an invalid answer after it fails the call at once', {
    timeout: 30_000,
  }, async () => {
    const server = await startOversizedServer({ standingStream: true });
    try {
      const { client, diagnostics } = await connect(server.url);
      for (const before of [VALID, INVALID]) {
        expect(await outcome(client, tool, [ping(before), INVALID])).toContain(REFUSED);
      }
      expect(diagnostics.filter((line) => line.includes('nobody waits for'))).toEqual([]);
    } finally {
      await Promise.allSettled(clients.splice(0).map((client) => client.close()));
      await server.close();
    }
  });

  it('nested too deep is dropped, not answered for', { timeout: 30_000 }, async () => {
    const server = await startOversizedServer({ standingStream: true });
    try {
      const { client } = await connect(server.url);
      expect(await outcome(client, tool, [ping(DEEP), ANSWERED])).toBe('[{"type":"text","text":"answered"}]');
    } finally {
      await Promise.allSettled(clients.splice(0).map((client) => client.close()));
      await server.close();
    }
  });
});
