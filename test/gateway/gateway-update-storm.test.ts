/**
 * A server that sends a storm of `notifications/resources/updated` for a subscribed URI: the client of `mcp-host
 * serve` hears of it at most once per 200 ms (the first update at once, the last of the burst after it), as with
 * `list_changed`, instead of once per update. The official v2 SDK client over stdio against the built CLI.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';

const STORM = 2_000;

let client: Client | undefined;
afterAll(async () => {
  await client?.close();
});

describe('mcp-host serve and a storm of resource updates', () => {
  it('passes on the first update at once and the rest as one, not one per update', async () => {
    const stateDir = await temporaryDirectory('mcp-host-update-storm-');
    const config = await writeFixtureServersConfig({ memory: { file: 'session-memory.mjs' } });
    const updated: string[] = [];
    client = new Client({ name: 'update-storm-client', version: '1.0.0' });
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    await connectStdioGateway(client, config, stateDir);
    await client.subscribeResource({ uri: 'note://a' });
    // The updates reach the gateway before the call's answer, and each one passed on is written before it.
    const touched = await client.callTool({ name: 'memory__touch', arguments: { times: STORM } });
    expect(touched.isError).toBe(false);
    expect(updated.length).toBeGreaterThanOrEqual(1);
    // One each 200 ms while the burst lasts, which a busy machine stretches: far fewer than one per update.
    expect(updated.length).toBeLessThan(STORM / 10);
    // The burst's last update comes once the interval is over.
    const before = updated.length;
    await waitUntil(() => updated.length > before || updated.length >= 2, 'the update that closes the burst');
    expect(updated.every((uri) => uri === 'note://a')).toBe(true);
  }, 60_000);
});
