/**
 * An MCP App's own tools (`_meta.ui.visibility: ["app"]`) are for its view, which the gateway does not pass on: a
 * client reached through `mcp-host serve` is neither offered them (listed or found by discovery) nor able to call
 * them, as the host's own model is not. The official v2 SDK client over stdio, against the built CLI.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

async function openGateway(toolDiscovery: 'never' | 'always'): Promise<Client> {
  const stateDir = await temporaryDirectory('mcp-host-gateway-app-only-');
  const config = await writeFixtureServersConfig({ apps: { file: 'app-views.mjs' } }, { fields: { toolDiscovery } });
  const client = new Client({ name: 'app-only-test-client', version: '1.0.0' });
  clients.push(client);
  await connectStdioGateway(client, config, stateDir);
  return client;
}

describe('mcp-host serve and an MCP App server', () => {
  it('neither lists nor runs the app-only tool, and still lists and runs the others', async () => {
    const client = await openGateway('never');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('apps__counter');
    expect(names).not.toContain('apps__bump');
    const bumped = await client.callTool({ name: 'apps__bump', arguments: { by: 2 } });
    expect(bumped.isError).toBe(true);
    expect(textOf(bumped)).toContain('Unknown tool "apps__bump"');
    const capabilities = await client.callTool({ name: 'apps__capabilities', arguments: {} });
    expect(capabilities.isError).toBe(false);
  }, 60_000);

  it('leaves the app-only tool out of discovery', async () => {
    const client = await openGateway('always');
    const found = textOf(await client.callTool({ name: 'search_tools', arguments: { query: 'bump the counter' } }));
    expect(found).toContain('apps__counter');
    expect(found).not.toContain('apps__bump');
    const bumped = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'apps__bump', arguments: { by: 2 } },
    });
    expect(bumped.isError).toBe(true);
    expect(textOf(bumped)).toContain('apps__bump');
  }, 60_000);
});
