/**
 * `mcp-host serve --stdio` given lines that are not messages it can take: each is answered with the JSON-RPC error
 * it calls for (parse error, invalid request naming what is wrong, the request's id when it has a usable one), on
 * stdout and nothing else there, and the connection goes on. A message over `gateway.maxRequestBytes` is skipped
 * and refused by its id: the official v2 SDK client's call fails at once, and its next call is answered.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { bundledCliPath, temporaryDirectory } from '../helpers/project.js';
import { answerTo, type RawStdioGateway, rawStdioGateway } from './raw-stdio-gateway.js';

const MAX_REQUEST_BYTES = 100_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function gatewayArgs(): Promise<string[]> {
  const stateDir = await temporaryDirectory('mcp-host-stdio-lines-');
  const config = await writeFixtureServersConfig(
    { calculator: { example: 'calculator' } },
    { fields: { gateway: { maxRequestBytes: MAX_REQUEST_BYTES } } },
  );
  return [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir];
}

async function rawGateway(): Promise<RawStdioGateway> {
  return rawStdioGateway(await gatewayArgs(), cleanups);
}

describe('mcp-host serve --stdio, given lines that are not messages', () => {
  it('answers each with a JSON-RPC error naming what is wrong, and keeps serving', async () => {
    const gateway = await rawGateway();
    const refused = [
      'not json at all',
      '{"jsonrpc":"2.0","id":2,"method":"ping"',
      '[{"jsonrpc":"2.0","id":3,"method":"ping"}]',
      '{"jsonrpc":"2.0","id":{"nested":true},"method":"ping"}',
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      '{"id":4,"method":"ping"}',
      '42',
      // Too long, each: a request with its id first, and an answer, whose id is the gateway's and is not echoed.
      `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"padding":"${'x'.repeat(MAX_REQUEST_BYTES)}"}}`,
      `{"result":{"padding":"${'x'.repeat(MAX_REQUEST_BYTES)}"},"jsonrpc":"2.0","id":7}`,
    ];
    for (const line of refused) gateway.send(line);
    gateway.send('{"jsonrpc":"2.0","id":5,"method":"ping"}');
    await waitUntil(() => answerTo(gateway.answers, 5) !== undefined, 'the answer to the ping after them');

    const errors = gateway.answers.filter((answer) => 'error' in (answer as object)) as Array<{
      id: unknown;
      error: { code: number; message: string };
    }>;
    expect(errors.map((answer) => [answer.id, answer.error.code])).toEqual([
      [null, -32700],
      [null, -32700],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [4, -32600],
      [null, -32600],
      [6, -32600],
      [null, -32600],
    ]);
    expect(errors[0]?.error.message).toContain('not JSON');
    expect(errors[7]?.error.message).toContain(`larger than ${MAX_REQUEST_BYTES} bytes`);
    expect(errors[2]?.error.message).toContain('batches');
    expect(errors[3]?.error.message).toContain('must be a string or an integer');
    expect(errors[5]?.error.message).toContain('"jsonrpc" must be "2.0"');
    expect(answerTo(gateway.answers, 5)).toMatchObject({ result: {} });
    expect(gateway.child.exitCode).toBeNull();
  }, 60_000);
});

describe('mcp-host serve --stdio, given arguments nested 10,000 levels deep', () => {
  // No SDK client can write them (its JSON.stringify overflows too), so they are sent as a raw line.
  it('answers the call with a tool error naming the depth, as the host answers its model', async () => {
    const gateway = await rawGateway();
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    gateway.send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculator__add_numbers","arguments":{"a":${deep},"b":1}}}`,
    );
    await waitUntil(() => answerTo(gateway.answers, 2) !== undefined, 'the answer to the call');
    const answer = answerTo(gateway.answers, 2) as { result?: { isError: boolean; content: Array<{ text: string }> } };
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.content[0]?.text).toContain('nested deeper than 128 levels');
  }, 60_000);
});

describe('mcp-host serve --stdio, given a message over gateway.maxRequestBytes', () => {
  it("refuses that call by its id at once and answers the client's next call", async () => {
    const client = new Client({ name: 'big-message-client', version: '1.0.0' });
    cleanups.push(() => client.close());
    await client.connect(new StdioClientTransport({ command: process.execPath, args: await gatewayArgs() }));

    const tooLarge = client.callTool(
      { name: 'calculator__add_numbers', arguments: { a: 1, b: 2, padding: 'x'.repeat(MAX_REQUEST_BYTES * 3) } },
      { timeout: 30_000 },
    );
    await expect(tooLarge).rejects.toThrow(`larger than ${MAX_REQUEST_BYTES} bytes (gateway.maxRequestBytes)`);
    const added = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } });
    expect(added.isError).toBe(false);
    expect(JSON.stringify(added.content)).toContain('12');
  }, 60_000);
});
