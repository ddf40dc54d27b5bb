/**
 * `subscriptions/listen` of the 2026-07-28 revision through `mcp-host serve --http`: the official v2 SDK client,
 * pinned to that revision, in front of the built CLI and real fixture servers behind it. A listen stream is
 * acknowledged with what the gateway honours, carries the profile's list changes and the updates of the resources it
 * names, subscribes the owning server while it is open, unsubscribes it when it closes, and is ended with its final
 * result when the gateway shuts down.
 */
import { Client, type McpSubscription } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';
import { touchSessionMemory } from '../helpers/touch-session-memory.js';

let gateway: TokenGateway;

beforeAll(async () => {
  const config = await writeFixtureServersConfig(
    {
      // Subscribable resources `note://…`; `touch` sends an update for each URI it is subscribed to.
      memory: { file: 'session-memory.mjs' },
      // `add_tool` adds a tool, so the server announces a tools list change.
      forwarding: { file: 'forwarding.mjs' },
    },
    { fields: { profiles: { notes: { servers: ['memory'] } } } },
  );
  const stateDir = await temporaryDirectory('mcp-host-listen-state-');
  gateway = await startTokenGateway(config, stateDir);
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
});

interface Heard {
  toolsChanged: number;
  resourcesChanged: number;
  updated: string[];
}

const nothingHeard = (): Heard => ({ toolsChanged: 0, resourcesChanged: 0, updated: [] });

async function modernClient(heard: Heard, path = ''): Promise<Client> {
  const client = new Client(
    { name: 'listen-test-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    heard.toolsChanged += 1;
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    heard.resourcesChanged += 1;
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.updated.push(notification.params.uri);
  });
  await gateway.connect(client, path);
  return client;
}

describe('subscriptions/listen through the gateway (2026-07-28)', () => {
  it('carries list changes and the updates of the resources it names while it is open, for its profile only', async () => {
    const heard = nothingHeard();
    const client = await modernClient(heard);
    const subscription: McpSubscription = await client.listen({
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['note://a'],
    });
    expect(subscription.honoredFilter).toEqual({
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['note://a'],
    });
    // A stream on a profile without the server that changes.
    const elsewhere = nothingHeard();
    const profileClient = await modernClient(elsewhere, '/notes');
    const profileSubscription = await profileClient.listen({ toolsListChanged: true });

    // The owning server was subscribed for the stream: its update comes back on it, with the same URI.
    expect(await touchSessionMemory(client)).toBe(1);
    await waitUntil(() => heard.updated.includes('note://a'), 'the resource update on the listen stream');

    const added = textOf(await client.callTool({ name: 'forwarding__add_tool', arguments: {} }));
    await waitUntil(() => heard.toolsChanged > 0, 'the tools list change on the listen stream');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(`forwarding__${added}`);
    await client.callTool({ name: 'forwarding__add_resource', arguments: {} });
    await waitUntil(() => heard.resourcesChanged > 0, 'the resources list change on the listen stream');
    expect(elsewhere).toEqual(nothingHeard());

    // Closing the stream gives the upstream subscription back.
    await subscription.close();
    expect(await subscription.closed).toBe('local');
    await waitUntil(async () => (await touchSessionMemory(client)) === 0, 'the server to be unsubscribed');
    await profileSubscription.close();
  }, 60_000);

  it('acknowledges only resources a server can be subscribed to', async () => {
    const client = await modernClient(nothingHeard());
    const subscription = await client.listen({ resourceSubscriptions: ['note://a', 'nowhere://x'] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['note://a'] });
    await subscription.close();
  }, 60_000);
});

describe('the end of a listen stream', () => {
  it('is the final result when the gateway shuts down', async () => {
    const client = await modernClient(nothingHeard());
    const subscription = await client.listen({ toolsListChanged: true });
    await gateway.process.stop();
    expect(await subscription.closed).toBe('graceful');
  }, 60_000);
});
