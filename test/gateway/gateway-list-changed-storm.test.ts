/**
 * A server that announces `tools/list_changed` without a quiet moment: the client of `mcp-host serve` hears of it
 * while it goes on (at most once per 200 ms), where waiting for a quiet interval told it nothing until the server
 * stopped. The official v2 SDK client over stdio against the built CLI and the list-changed-storm fixture.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';

const STORM = 2_000;

let client: Client | undefined;
afterAll(async () => {
  await client?.close();
});

describe('mcp-host serve and a storm of tools/list_changed', () => {
  it('tells the client during the storm, not only once it is over', async () => {
    const stateDir = await temporaryDirectory('mcp-host-list-changed-storm-');
    const config = await writeFixtureServersConfig({ storm: { file: 'list-changed-storm.mjs' } });
    let heard = 0;
    client = new Client({ name: 'list-changed-storm-client', version: '1.0.0' });
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      heard += 1;
    });
    await connectStdioGateway(client, config, stateDir);
    // Ten bursts about 130 ms apart for 1.2 s: never 200 ms without an announcement until the answer.
    const stormed = await client.callTool({ name: 'storm__storm', arguments: { count: STORM, durationMs: 1_200 } });
    expect(stormed.isError).toBe(false);
    expect(heard).toBeGreaterThanOrEqual(1);
    // Bounded all the same, also when a busy machine stretches the storm: nowhere near one per announcement.
    expect(heard).toBeLessThan(STORM / 10);
  }, 60_000);
});
