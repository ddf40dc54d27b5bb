/**
 * `mcp-host serve` in front of a catalog of over 300 real tool definitions, reached by the official v2 SDK client
 * over stdio and over Streamable HTTP: under the default `toolDiscovery: "auto"` it lists only the meta-tools, and `call_tool` runs the named
 * tool through the host's own call path, so rules, argument checks and the audit apply to it.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

const catalogServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'discovery', 'catalog-server.mjs'));

let client: Client;
let stateDir: string;

async function toolCalls(): Promise<Array<Record<string, unknown>>> {
  return (await auditRecords(stateDir)).filter((record) => record.type === 'tool-call');
}

beforeAll(async () => {
  stateDir = await temporaryDirectory('mcp-host-discovery-state-');
  const config = await writeConfig({
    mcpServers: { catalog: { command: process.execPath, args: [catalogServer], trust: 'trusted' } },
    permissions: { allow: ['catalog__github_*'], deny: ['catalog__stripe_create_refund'] },
  });
  client = new Client({ name: 'discovery-test-client', version: '1.2.3' });
  await connectStdioGateway(client, config, stateDir);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('mcp-host serve with dynamic tool discovery', () => {
  it('lists the three meta-tools instead of the catalog', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  }, 60_000);

  it('finds, describes and calls a tool, audited under the tool’s own name with the client', async () => {
    const found = textOf(await client.callTool({ name: 'search_tools', arguments: { query: 'open a pull request' } }));
    expect(found).toContain('catalog__github_create_pull_request');

    const described = JSON.parse(
      textOf(await client.callTool({ name: 'describe_tool', arguments: { name: 'catalog__github_create_issue' } })),
    );
    expect(described.inputSchema.required).toEqual(['owner', 'repo', 'title']);

    const called = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'catalog__github_create_issue', arguments: { owner: 'o', repo: 'r', title: 'Bug' } },
    });
    expect(called.isError, textOf(called)).toBeFalsy();
    expect(JSON.parse(textOf(called))).toEqual({
      tool: 'github_create_issue',
      arguments: { owner: 'o', repo: 'r', title: 'Bug' },
    });
    const record = (await toolCalls()).find((entry) => entry.tool === 'catalog__github_create_issue');
    expect(record).toMatchObject({ decision: 'allow', outcome: 'ok', client: { name: 'discovery-test-client' } });
  }, 60_000);

  it('applies the rules and argument checks to a tool called by name', async () => {
    const denied = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'catalog__stripe_create_refund', arguments: { payment_intent: 'pi_1' } },
    });
    expect(denied.isError).toBe(true);
    const invalid = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'catalog__github_create_issue', arguments: { owner: 'o' } },
    });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/repo|title/);
    const unknown = await client.callTool({ name: 'call_tool', arguments: { name: 'catalog__nothing' } });
    expect(unknown.isError).toBe(true);

    const records = await toolCalls();
    expect(records.find((entry) => entry.tool === 'catalog__stripe_create_refund')).toMatchObject({
      decision: 'deny',
    });
    // Only named tools reach the audit: the meta-tools themselves run nothing.
    expect(records.some((entry) => entry.tool === 'search_tools' || entry.tool === 'call_tool')).toBe(false);
  }, 60_000);
});

describe('mcp-host serve --http with dynamic tool discovery', () => {
  let gateway: TokenGateway | undefined;

  afterAll(async () => {
    await gateway?.stop();
  });

  it('offers the meta-tools over HTTP and runs a named tool through them, audited with the HTTP client', async () => {
    const config = await writeConfig({
      mcpServers: { catalog: { command: process.execPath, args: [catalogServer], trust: 'trusted' } },
      permissions: { allow: ['catalog__github_*'] },
    });
    gateway = await startTokenGateway(config, stateDir);
    const httpClient = new Client({ name: 'discovery-http-client', version: '2.0.0' });
    await gateway.connect(httpClient);

    const names = (await httpClient.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    const found = textOf(
      await httpClient.callTool({ name: 'search_tools', arguments: { query: 'open a pull request' } }),
    );
    expect(found).toContain('catalog__github_create_pull_request');
    const described = JSON.parse(
      textOf(await httpClient.callTool({ name: 'describe_tool', arguments: { name: 'catalog__github_create_issue' } })),
    );
    expect(described.inputSchema.required).toEqual(['owner', 'repo', 'title']);
    const called = await httpClient.callTool({
      name: 'call_tool',
      arguments: { name: 'catalog__github_create_issue', arguments: { owner: 'o', repo: 'r', title: 'Over HTTP' } },
    });
    expect(called.isError, textOf(called)).toBeFalsy();
    expect(JSON.parse(textOf(called)).arguments.title).toBe('Over HTTP');
    const overHttp = (await toolCalls()).filter(
      (entry) => (entry.client as { name?: string } | undefined)?.name === 'discovery-http-client',
    );
    expect(overHttp).toEqual([
      expect.objectContaining({
        tool: 'catalog__github_create_issue',
        decision: 'allow',
        outcome: 'ok',
        client: expect.objectContaining({ principal: 'default' }),
      }),
    ]);
  }, 90_000);
});
