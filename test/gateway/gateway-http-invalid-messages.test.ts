/**
 * `mcp-host serve --http` given a body that is JSON but not a message it can take: a 400 whose JSON-RPC error says
 * what is wrong (an id that is neither a string nor an integer, a wrong `jsonrpc`, a value that is not an object),
 * with the request's id when it has a usable one, where the SDK would call each a parse error. The official v2 SDK
 * client's session goes on.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { startGatewayProcess } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';

const TOKEN = 'a-test-token-of-enough-length';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe('mcp-host serve --http, given bodies that are not messages', () => {
  it('answers each with 400 naming what is wrong, and the session goes on', async () => {
    const stateDir = await temporaryDirectory('mcp-host-gateway-invalid-');
    const config = await writeFixtureServersConfig({ calculator: { example: 'calculator' } });
    const gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: TOKEN,
    });
    cleanups.push(gateway.stop);
    const client = new Client({ name: 'invalid-messages-client', version: '1.0.0' });
    const transport = bearerTransport(gateway.url, TOKEN);
    await client.connect(transport);
    cleanups.push(() => client.close());

    const post = async (body: string) => {
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'mcp-protocol-version': '2025-06-18',
        },
        body,
      });
      return {
        status: response.status,
        answer: (await response.json()) as { id: unknown; error: { code: number; message: string } },
      };
    };
    const nullId = await post('{"jsonrpc":"2.0","id":null,"method":"ping"}');
    expect(nullId.status).toBe(400);
    expect(nullId.answer.error.code).toBe(-32600);
    expect(nullId.answer.error.message).toContain('the id of request "ping" must be a string or an integer');
    const wrongVersion = await post('{"jsonrpc":"1.0","id":7,"method":"ping"}');
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.answer).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(wrongVersion.answer.error.message).toContain('"jsonrpc" must be "2.0"');
    const scalar = await post('42');
    expect(scalar.status).toBe(400);
    expect(scalar.answer.error.message).toContain('a JSON-RPC message is a JSON object');

    const added = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } });
    expect(JSON.stringify(added.content)).toContain('12');
  }, 90_000);
});
