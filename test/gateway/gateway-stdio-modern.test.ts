/**
 * `mcp-host serve --stdio` to a client of the 2026-07-28 revision: the official v2 SDK client pinned to that revision
 * starts the built CLI as its server, with real fixture servers behind it. It lists and calls tools through the
 * host's duties (an approval asked by `input_required`, audit with the client's identity), and hears of changes on
 * `subscriptions/listen`: a tools list change, and the updates of a resource it names, whose server is subscribed
 * while the listen is open.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { bundledCliPath, fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { touchSessionMemory } from '../helpers/touch-session-memory.js';

let client: Client;
let stateDir: string;
const asked: string[] = [];
const heard = { toolsChanged: 0, updated: [] as string[] };

beforeAll(async () => {
  stateDir = await temporaryDirectory('mcp-host-stdio-modern-state-');
  const config = await writeConfig({
    mcpServers: {
      // Subscribable resources `note://…`; `touch` sends an update for each URI it is subscribed to.
      memory: { command: process.execPath, args: [fixtureServer('session-memory.mjs')], trust: 'trusted' },
      // `add_tool` adds a tool, so the server announces a tools list change.
      forwarding: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' },
    },
    permissions: { allow: ['memory__*', 'forwarding__*'], ask: ['forwarding__add_prompt'] },
  });
  client = new Client(
    { name: 'stdio-modern-client', version: '3.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision: 'allow-once' } };
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    heard.toolsChanged += 1;
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.updated.push(notification.params.uri);
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bundledCliPath(), 'serve', '--stdio', '--config', config, '--state-dir', stateDir],
      stderr: 'pipe',
    }),
  );
}, 90_000);

afterAll(async () => {
  await client?.close();
});

describe('mcp-host serve --stdio to a 2026-07-28 client', () => {
  it('serves the revision without initialize, lists and calls tools, and asks approvals by input_required', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['memory__touch', 'forwarding__add_tool']));

    const approved = await client.callTool({ name: 'forwarding__add_prompt', arguments: {} });
    expect(approved.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('add_prompt');

    let records: Array<Record<string, unknown>> = [];
    await waitUntil(async () => {
      records = (await auditRecords(stateDir)).filter(
        (record) => record.type === 'tool-call' && record.tool === 'forwarding__add_prompt',
      );
      return records.length > 0;
    }, 'the audited call');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      decision: 'allow',
      approver: 'gateway-client',
      client: { name: 'stdio-modern-client', version: '3.0.0', session: 'stdio' },
    });
  }, 60_000);

  it('carries a tools list change and the updates of the resources a listen names while it is open', async () => {
    const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['note://a'] });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ['note://a'] });

    // The owning server was subscribed for the listen: its update comes back on it.
    expect(await touchSessionMemory(client)).toBe(1);
    await waitUntil(() => heard.updated.includes('note://a'), 'the resource update on the listen');

    const added = textOf(await client.callTool({ name: 'forwarding__add_tool', arguments: {} }));
    await waitUntil(() => heard.toolsChanged > 0, 'the tools list change on the listen');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(`forwarding__${added}`);

    // Closing the listen gives the upstream subscription back.
    await subscription.close();
    await waitUntil(async () => (await touchSessionMemory(client)) === 0, 'the server to be unsubscribed');
  }, 60_000);
});
