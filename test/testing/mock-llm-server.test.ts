import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockLlmServer, startMockLlmServer } from '../../src/testing/mock-llm/mock-llm-server.js';
import type { MockWire } from '../../src/testing/mock-llm/wire.js';
import { defaultWires } from '../../src/testing/mock-llm/wires/index.js';
import type { Script } from '../../src/testing/script-types.js';

const script: Script = { scenarios: [{ turns: [{ text: 'hello from the mock' }] }] };

const anthropicBody = {
  model: 'claude-test',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
};

describe('startMockLlmServer', () => {
  let server: MockLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('listens on 127.0.0.1 with a free port and lists the anthropic wire by default', async () => {
    server = await startMockLlmServer({ script });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(defaultWires().map((wire) => wire.name)).toContain('anthropic');
  });

  it('answers an unknown path with a 404 naming the path and the routes it knows', async () => {
    server = await startMockLlmServer({ script });
    const response = await fetch(`${server.url}/v2/complete`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('not_found_error');
    expect(body.error.message).toContain('POST /v2/complete');
    expect(body.error.message).toContain('POST /v1/messages');
    expect(server.requests[0]).toMatchObject({ wire: null, method: 'POST', path: '/v2/complete', body: {} });
  });

  it('answers a body that is not JSON with a 400 in the wire error shape', async () => {
    server = await startMockLlmServer({ script });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: '{"model": ',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('not valid JSON');
    expect(server.requests[0]?.body).toBe('{"model": ');
  });

  it('records requests with credentials redacted, serves them at /_mock/requests and clears them', async () => {
    server = await startMockLlmServer({ script });
    const response = await fetch(`${server.url}/v1/messages?key=secret-in-query`, {
      method: 'POST',
      headers: { 'x-api-key': 'secret-key', authorization: 'Bearer secret-token', 'content-type': 'application/json' },
      body: JSON.stringify(anthropicBody),
    });
    expect(response.status).toBe(200);
    const listed = (await (await fetch(`${server.url}/_mock/requests`)).json()) as MockLlmServer['requests'];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ wire: 'anthropic', method: 'POST', body: anthropicBody });
    expect(listed[0]?.headers['x-api-key']).toBe('<redacted>');
    expect(listed[0]?.headers.authorization).toBe('<redacted>');
    expect(listed[0]?.path).toBe('/v1/messages?key=%3Credacted%3E');
    expect(JSON.stringify(listed)).not.toContain('secret');

    const cleared = await fetch(`${server.url}/_mock/requests`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect(server.requests).toHaveLength(0);
    expect(await (await fetch(`${server.url}/_mock/requests`)).json()).toEqual([]);
  });

  it('ends open connections on close, a response still streaming included', async () => {
    const hangingWire: MockWire = {
      name: 'openai-chat',
      paths: ['POST /hang'],
      matches: (method, path) => method === 'POST' && path === '/hang',
      readRequest: () => ({
        model: 'm',
        stream: true,
        toolNames: [],
        firstUserText: '',
        assistantTurns: 0,
        lastToolResults: [],
      }),
      writeAnswer(res) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {}\n\n'); // and never ends
      },
      writeError(res, status, message) {
        res.writeHead(status).end(message);
      },
    };
    server = await startMockLlmServer({ script, wires: [hangingWire] });
    const { port } = server;
    const ended = new Promise<string>((resolve) => {
      const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/hang' }, (response) => {
        response.once('data', () => {
          void server?.close().then(() => resolve('closed'));
        });
        response.on('error', () => undefined);
      });
      request.on('error', () => undefined);
      request.end('{}');
    });
    const outcome = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('timeout'), 5000))]);
    expect(outcome).toBe('closed');
    server = undefined;
    await expect(fetch(`http://127.0.0.1:${port}/_mock/requests`)).rejects.toThrow();
  });
});
