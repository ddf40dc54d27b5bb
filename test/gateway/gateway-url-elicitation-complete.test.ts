/**
 * A server's `notifications/elicitation/complete` through `mcp-host serve --http`: it says that the page of a URL
 * elicitation the server opened is done, by an id the server chose. It reaches the client that was asked that
 * elicitation by that server, and no one else: not another client of the gateway, and not that client when another
 * server names the same id (which would tell it a sign-in it is waiting on finished when it did not). Two v2 SDK
 * clients, both able to take URL elicitations, and two copies of a raw fixture server behind the built CLI.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';

const TOKEN = 'a-url-elicitation-test-token';

interface Downstream {
  client: Client;
  /** The ids of the completions it was told of, in order. */
  completed: string[];
  /** How many `tools/list_changed` it heard: each `complete` call ends with one, after its completion. */
  toolChanges: number;
}

let gateway: GatewayProcess | undefined;
const downstreams: Downstream[] = [];

async function connect(name: string): Promise<Downstream> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {}, url: {} } } });
  const downstream: Downstream = { client, completed: [], toolChanges: 0 };
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' }));
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    downstream.completed.push(notification.params.elicitationId);
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    downstream.toolChanges += 1;
  });
  await client.connect(bearerTransport(gateway!.url, TOKEN));
  downstreams.push(downstream);
  return downstream;
}

/** Calls `server__complete` for `id` and waits until every client heard the tools change it sends after. */
async function complete(by: Downstream, server: string, id: string): Promise<void> {
  const before = downstreams.map((downstream) => downstream.toolChanges);
  await by.client.callTool({ name: `${server}__complete`, arguments: { id } });
  await waitUntil(
    () => downstreams.every((downstream, index) => downstream.toolChanges > before[index]!),
    `the tools change after ${server}'s completion of ${id}`,
  );
}

beforeAll(async () => {
  const server = { command: process.execPath, args: [fixtureServer('url-elicitation.mjs')], trust: 'trusted' };
  const config = await writeConfig({
    mcpServers: { signin: server, spoofer: server },
    permissions: { allow: ['signin__*', 'spoofer__*'] },
  });
  gateway = await startGatewayProcess(['--config', config, '--state-dir', await temporaryDirectory()], {
    MCP_HOST_GATEWAY_TOKEN: TOKEN,
  });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(downstreams.map((downstream) => downstream.client.close()));
  await gateway?.stop();
});

describe('mcp-host serve --http, a server saying a URL elicitation is complete', () => {
  it('tells only the client that server asked, and nobody when another server names its id', async () => {
    const asked = await connect('asked-client');
    const other = await connect('other-client');
    const answer = await asked.client.callTool({ name: 'signin__ask', arguments: { id: 'sign-in-1' } });
    expect(answer.isError).not.toBe(true);

    // Another server names the elicitation the first one opened: nobody is told.
    await complete(other, 'spoofer', 'sign-in-1');
    expect(asked.completed).toEqual([]);
    expect(other.completed).toEqual([]);

    // The server that opened it says it is done: its client is told, the other client is not.
    await complete(other, 'signin', 'sign-in-1');
    expect(asked.completed).toEqual(['sign-in-1']);
    expect(other.completed).toEqual([]);

    // Said again, it is not told again: the elicitation was complete already.
    await complete(asked, 'signin', 'sign-in-1');
    expect(asked.completed).toEqual(['sign-in-1']);
  }, 90_000);
});
