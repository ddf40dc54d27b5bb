/**
 * A gateway in front of another: the outer one's two clients share its one connection to the inner one, which serves
 * the asks-when-told fixture twice over stdio (`asks` and `other`). The inner gateway sends a server's request as part
 * of a call (on that call's own response stream) only when it is that call's, as far as the inner gateway can tell;
 * the outer one then puts it to that call's client, where a request sent on its own would be refused while both
 * clients have calls to the inner gateway in flight. One the inner gateway cannot put to one call (its one client,
 * the outer gateway, has several calls to that server in flight) is sent on its own, on the standing stream the outer
 * gateway opened, and is not put to the client of whichever call is newest. Official v2 SDK clients in front of two
 * processes of the built CLI.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { callWaitsAtGate } from '../helpers/call-waits-at-gate.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess } from '../helpers/gateway-process.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';

const INNER_TOKEN = 'the-inner-gateway-test-token';
const OUTER_TOKEN = 'the-outer-gateway-test-token';

interface TestClient {
  client: Client;
  /** The prompts of the sampling requests it was asked. */
  asked: string[];
}

function testClient(name: string): TestClient {
  const made: TestClient = {
    client: new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {} } }),
    asked: [],
  };
  made.client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content;
    const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
    made.asked.push(prompt);
    return { model: `model-of-${name}`, role: 'assistant', content: { type: 'text', text: `you asked "${prompt}"` } };
  });
  return made;
}

describe('a gateway behind a gateway, with two clients in front', () => {
  let inner: GatewayProcess | undefined;
  let outer: GatewayProcess | undefined;
  let eventLog = '';
  const a = testClient('client-A');
  const b = testClient('client-B');

  beforeAll(async () => {
    const stateDir = await temporaryDirectory('mcp-host-chained-state-');
    eventLog = join(stateDir, 'events.log');
    const innerConfig = await writeFixtureServersConfig({
      asks: { file: 'asks-when-told.mjs', env: { EVENT_LOG: eventLog } },
      other: { file: 'asks-when-told.mjs', env: { EVENT_LOG: eventLog } },
    });
    inner = await startGatewayProcess(['--config', innerConfig, '--state-dir', join(stateDir, 'inner')], {
      MCP_HOST_GATEWAY_TOKEN: INNER_TOKEN,
    });
    const outerConfig = await writeConfig({
      mcpServers: {
        inner: { url: inner.url, headers: { Authorization: `Bearer ${INNER_TOKEN}` }, trust: 'trusted' },
      },
      permissions: { allow: ['inner__*'] },
    });
    outer = await startGatewayProcess(['--config', outerConfig, '--state-dir', join(stateDir, 'outer')], {
      MCP_HOST_GATEWAY_TOKEN: OUTER_TOKEN,
    });
    for (const { client } of [a, b]) {
      await client.connect(bearerTransport(outer.url, OUTER_TOKEN));
    }
  }, 120_000);

  afterAll(async () => {
    for (const { client } of [a, b]) await client.close().catch(() => undefined);
    await outer?.stop();
    await inner?.stop();
  });

  it('puts a request of A’s only call to a server to A, while B calls another server behind the inner gateway', async () => {
    const held = b.client.callTool({ name: 'inner__other__wait', arguments: { gate: 'held' } });
    await callWaitsAtGate(eventLog, 'held');
    const result = await a.client.callTool({ name: 'inner__asks__ask_model', arguments: { prompt: 'for A alone' } });
    expect(textOf(result)).toBe('model model-of-client-A said: you asked "for A alone"');
    expect(a.asked).toEqual(['for A alone']);
    expect(b.asked).toEqual([]);
    await b.client.callTool({ name: 'inner__other__open', arguments: { gate: 'held' } });
    expect(textOf(await held)).toBe('opened');
  }, 60_000);

  it('puts no request to B that the inner gateway cannot tell is of A’s call, B’s being newer', async () => {
    a.asked.length = 0;
    const asked = a.client.callTool({
      name: 'inner__asks__ask_model',
      arguments: { prompt: 'whose is this?', after: 'late' },
    });
    await callWaitsAtGate(eventLog, 'late');
    const held = b.client.callTool({ name: 'inner__asks__wait', arguments: { gate: 'late-b' } });
    await callWaitsAtGate(eventLog, 'late-b');
    // B opens the gate, so that whichever of B's calls is the newest when the server asks, it is B's.
    await b.client.callTool({ name: 'inner__asks__open', arguments: { gate: 'late' } });
    const result = textOf(await asked);
    expect(b.asked).toEqual([]);
    expect(result).toContain('calls of 2 clients to it are in flight');
    expect(a.asked).toEqual([]);
    await b.client.callTool({ name: 'inner__asks__open', arguments: { gate: 'late-b' } });
    expect(textOf(await held)).toBe('opened');
  }, 60_000);
});
