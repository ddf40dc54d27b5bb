/**
 * A request a Streamable HTTP server sends on a call's own response stream is that call's client's, even once the
 * call has been answered: it must not then be put to another client as though nothing said whose it is. Two official
 * v2 SDK clients in front of the built CLI; behind it a raw server in this process, which writes a sampling request
 * on client A's call stream after that call's result, when the test says, while client B has a call in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown> };

/** The raw server: `wait` holds its call until `release` is called; `late` answers at once and keeps its stream. */
function lateAskingServer() {
  let held: { response: ServerResponse; id: string | number } | undefined;
  let lateStream: ServerResponse | undefined;
  const answers: Message[] = [];
  const event = (response: ServerResponse, message: unknown) =>
    response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  const openStream = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'late-session' });
    response.flushHeaders();
  };
  const json = (response: ServerResponse, message: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'late-session' });
    response.end(JSON.stringify(message));
  };
  const result = (id: string | number | undefined, text: string) => ({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text }] },
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST') {
      response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message;
    if (message.method === undefined) answers.push(message);
    if (message.method === undefined || message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    switch (message.method) {
      case 'initialize':
        return json(response, {
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'late-asker', version: '1.0.0' },
          },
        });
      case 'tools/list': {
        const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
        return json(response, {
          jsonrpc: '2.0',
          id: message.id,
          result: { tools: ['wait', 'release', 'late'].map(tool) },
        });
      }
      case 'tools/call': {
        const name = message.params?.name;
        if (name === 'wait') {
          openStream(response);
          held = { response, id: message.id };
          return;
        }
        if (name === 'release' && held !== undefined) {
          event(held.response, result(held.id, 'released'));
          held.response.end();
          held = undefined;
          return json(response, result(message.id, 'done'));
        }
        if (name === 'late') {
          openStream(response);
          event(response, result(message.id, 'answered'));
          lateStream = response;
          return;
        }
        return json(response, result(message.id, 'unknown'));
      }
      default:
        return json(response, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not found' } });
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  return {
    server,
    answers,
    /** Whether a `wait` call is held. */
    holding: () => held !== undefined,
    /** Writes a sampling request on the `late` call's stream, after that call's result. */
    askLate(prompt: string) {
      if (lateStream === undefined) throw new Error('no late call was made');
      event(lateStream, {
        jsonrpc: '2.0',
        id: 'late-ask',
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 50 },
      });
    },
  };
}

describe('a sampling request on a call’s stream after its result', () => {
  const upstream = lateAskingServer();
  let gateway: TokenGateway | undefined;
  const asked: Record<'A' | 'B', string[]> = { A: [], B: [] };
  const clients = (['A', 'B'] as const).map((name) => {
    const client = new Client({ name: `client-${name}`, version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content;
      asked[name].push(first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?');
      return { model: `model-of-${name}`, role: 'assistant', content: { type: 'text', text: 'ok' } };
    });
    return client;
  });
  const [a, b] = clients as [Client, Client];

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.server.address() as AddressInfo;
    const stateDir = await temporaryDirectory('mcp-host-late-request-state-');
    const config = await writeConfig({
      mcpServers: { late: { url: `http://127.0.0.1:${port}/mcp`, trust: 'trusted' } },
      permissions: { allow: ['late__*'] },
    });
    gateway = await startTokenGateway(config, stateDir);
    for (const client of clients) await gateway.connect(client);
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
    upstream.server.closeAllConnections();
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  it('is not put to another client calling that server once A’s call has ended', async () => {
    const held = b.callTool({ name: 'late__wait', arguments: {} });
    // Awaited below; should the test fail first, closing B rejects it.
    held.catch(() => undefined);
    await waitUntil(() => upstream.holding(), 'B’s call to be held by the server');
    expect(textOf(await a.callTool({ name: 'late__late', arguments: {} }))).toBe('answered');
    upstream.askLate('the data of A’s call');
    await waitUntil(() => upstream.answers.some((answer) => answer.id === 'late-ask'), 'the request to be answered');
    expect(asked.B).toEqual([]);
    expect(upstream.answers.find((answer) => answer.id === 'late-ask')).toHaveProperty('error');
    expect(textOf(await b.callTool({ name: 'late__release', arguments: {} }))).toBe('done');
    expect(textOf(await held)).toBe('released');
  }, 60_000);
});
