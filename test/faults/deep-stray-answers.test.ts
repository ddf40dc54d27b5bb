/**
 * A remote server's answer nested too deep, on the standing GET event stream or the legacy HTTP+SSE stream, fails the
 * request it names when one waits for it, as from a stdio server; one for an id nobody waits for is told in a
 * diagnostic and dropped, and nothing reaches the client in its place (a host-written answer for it would have no
 * request to take it, and the client library would report it as an error of its own).
 */
import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteServerConfig } from '../../src/config/types.js';
import { createTransport } from '../../src/connections/create-transport.js';
import { startOversizedServer } from '../fixtures/faults/oversized-http-server.js';
import { httpServer } from '../helpers/configs.js';
import { startLegacySseServer } from '../helpers/legacy-sse-server.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const DEEP = (id: string) =>
  `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":{"v":${deep(200)}}}}`;
const ANSWERED = '{"jsonrpc":"2.0","id":"$ID","result":{"content":[{"type":"text","text":"answered"}]}}';
const STRAY_TOLD = 'sent an answer to request 987654, which nobody waits for, nested deeper than 128 levels; refused';

/** A client on `config` through the host's own transport, with what it is handed and what it reports. */
async function connect(config: RemoteServerConfig) {
  const diagnostics: string[] = [];
  const { client, transport } = await createTransport(config, {
    connectTimeoutMs: 10_000,
    clientInfo: { name: 'deep-stray-test', version: '1.0.0' },
    onDiagnostic: (message) => diagnostics.push(message),
    onToolsChanged: () => undefined,
  });
  clients.push(client);
  const errors: string[] = [];
  client.onerror = (error) => errors.push(error.message);
  // Every message the transport hands the client, the host's error answers included.
  const handedOn: JSONRPCMessage[] = [];
  const receive = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    handedOn.push(message);
    receive(message, extra);
  };
  return { client, diagnostics, errors, handedOn };
}

/** The call after the strays was answered, and nothing for the stray id reached the client. */
function expectStrayDropped(called: { content?: unknown }, handedOn: JSONRPCMessage[]): void {
  expect(called.content).toEqual([{ type: 'text', text: 'answered' }]);
  expect(handedOn.filter((message) => 'id' in message && message.id === 987654)).toEqual([]);
}

async function callFails(client: Client, name: string, events: string[]): Promise<string> {
  return client.callTool({ name, arguments: { events } }, { timeout: 60_000 }).then(
    (result) => JSON.stringify(result),
    (error: Error) => error.message,
  );
}

describe('a remote answer nested too deep on a stream no request of its own is behind', () => {
  // The two streams no request of its own is behind: a server, the config that reaches it and the tool that answers
  // on that stream.
  const streams = [
    {
      stream: 'the standing GET stream',
      start: async () => {
        const server = await startOversizedServer({ standingStream: true });
        return { config: httpServer('remote', server.url), tool: 'raw_standing', stop: () => server.close() };
      },
    },
    {
      stream: 'the legacy HTTP+SSE stream',
      start: async () => {
        const server = await startLegacySseServer(['--raw-answers']);
        const config = httpServer('legacy', server.url, { transport: 'sse' });
        return { config, tool: 'raw_answer', stop: () => server.stop() };
      },
    },
  ];
  for (const { stream, start } of streams) {
    it(`on ${stream} fails the call it names; one for an id nobody waits for is told and dropped`, {
      timeout: 30_000,
    }, async () => {
      const { config, tool, stop } = await start();
      try {
        const { client, diagnostics, errors, handedOn } = await connect(config);
        expect(await callFails(client, tool, [DEEP('"$ID"')])).toContain(
          "the server's answer to tools/call is nested deeper than 128 levels, so the host refused it",
        );
        const called = await client.callTool({ name: tool, arguments: { events: [DEEP('987654'), ANSWERED] } });
        expectStrayDropped(called, handedOn);
        expect(errors).toEqual([]);
        expect(diagnostics).toEqual([STRAY_TOLD]);
      } finally {
        await Promise.allSettled(clients.splice(0).map((client) => client.close()));
        await stop();
      }
    });
  }

  it("on a POST's own stream, for an id neither the POST nor the connection waits for, is told and dropped", {
    timeout: 30_000,
  }, async () => {
    const server = await startOversizedServer();
    try {
      const { client, diagnostics, errors, handedOn } = await connect(httpServer('remote', server.url));
      const called = await client.callTool({ name: 'raw_sse', arguments: { events: [DEEP('987654'), ANSWERED] } });
      expectStrayDropped(called, handedOn);
      expect(errors).toEqual([]);
      expect(diagnostics).toEqual([STRAY_TOLD]);
    } finally {
      await Promise.allSettled(clients.splice(0).map((client) => client.close()));
      await server.close();
    }
  });

  it('tells a few strays one by one, then once that further ones go untold', { timeout: 30_000 }, async () => {
    const server = await startOversizedServer({ standingStream: true });
    try {
      const { client, diagnostics, handedOn } = await connect(httpServer('remote', server.url));
      const strays = Array.from({ length: 8 }, () => DEEP('987654'));
      const called = await client.callTool({ name: 'raw_standing', arguments: { events: [...strays, ANSWERED] } });
      expectStrayDropped(called, handedOn);
      expect(diagnostics).toEqual([
        ...Array.from({ length: 5 }, () => STRAY_TOLD),
        'keeps sending answers nobody waits for nested too deep; further ones are refused silently',
      ]);
    } finally {
      await Promise.allSettled(clients.splice(0).map((client) => client.close()));
      await server.close();
    }
  });
});
