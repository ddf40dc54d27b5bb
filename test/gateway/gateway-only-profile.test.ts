/**
 * `mcp-host serve --http --profile NAME` serves that profile only: at `/mcp` as at `/mcp/NAME`, with its servers and
 * its rules, while the whole config and other profiles are refused (404 naming the profile served), and `/ready`
 * waits on that profile alone. The official v2 SDK client against the built CLI.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { startGatewayProcess } from '../helpers/gateway-process.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';

const TOKEN = 'a-test-token-of-enough-length';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe('mcp-host serve --http --profile', () => {
  it('serves the profile at /mcp with its rules and refuses the rest of the config', async () => {
    const stateDir = await temporaryDirectory('mcp-host-gateway-only-profile-');
    const config = await writeConfig({
      mcpServers: {
        calculator: trustedCalculator,
        counter: { command: process.execPath, args: [fixtureServerPath('counter')], trust: 'trusted' },
      },
      permissions: { allow: ['calculator__*', 'counter__*'] },
      profiles: {
        maths: { servers: ['calculator'], permissions: { deny: ['calculator__multiply'] } },
        echo: { servers: ['counter'] },
      },
    });
    const gateway = await startGatewayProcess(['--profile', 'maths', '--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: TOKEN,
    });
    cleanups.push(gateway.stop);
    const root = gateway.url.replace(/\/maths$/, '');
    expect(root).toMatch(/\/mcp$/);

    const client = new Client({ name: 'only-profile-client', version: '1.0.0' });
    await client.connect(bearerTransport(root, TOKEN));
    cleanups.push(() => client.close());
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('calculator__add_numbers');
    expect(names.some((name) => name.startsWith('counter__'))).toBe(false);
    const multiplied = await client.callTool({ name: 'calculator__multiply', arguments: { a: 2, b: 3 } });
    expect(multiplied.isError).toBe(true);
    expect(textOf(multiplied)).not.toBe('6');
    // An unknown name gets close names, only among the profile's tools.
    const misspelt = await client.callTool({ name: 'calculator__add_numbrs', arguments: { a: 2, b: 3 } });
    expect(misspelt.isError).toBe(true);
    expect(textOf(misspelt)).toContain('Did you mean: calculator__add_numbers?');
    const outside = await client.callTool({ name: 'counter__ech', arguments: {} });
    expect(textOf(outside)).toBe('Unknown tool "counter__ech". List the tools again.');

    const other = await fetch(`${root}/echo`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(other.status).toBe(404);
    expect(await other.text()).toContain('serves only profile \\"maths\\"');
    expect((await fetch(new URL('/ready', root))).status).toBe(200);
  }, 90_000);
});
