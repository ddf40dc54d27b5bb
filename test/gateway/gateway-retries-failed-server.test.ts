/**
 * `mcp-host serve` runs unattended: a server that failed to start is started again after `gateway.retryFailedServersMs`,
 * and the client hears its tools arrive as a list change, then calls one. The official v2 SDK client over stdio against
 * the built CLI.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, expect, it } from 'vitest';
import { writeFailsFirstStartServer } from '../helpers/fails-first-start.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { waitUntil } from '../helpers/wait-until.js';

let client: Client | undefined;
let directory: string | undefined;
afterEach(async () => {
  await client?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
  client = undefined;
  directory = undefined;
});

it('starts a server that failed to start again, and its client hears of its tools', async () => {
  directory = await temporaryDirectory('mcp-host-gateway-retry-');
  // Its restarts wait for the gate until the test has seen the listing without its tools: a restart is tried within
  // half a second here, which a busy machine could take to answer the first listing.
  const gate = join(directory, 'come-back');
  const server = await writeFailsFirstStartServer(directory, { gate });
  const config = join(directory, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      gateway: { retryFailedServersMs: 200 },
      mcpServers: {
        flaky: { command: process.execPath, args: [server], trust: 'trusted' },
      },
    }),
  );
  let toolsChanged = 0;
  client = new Client({ name: 'gateway-retry-client', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    toolsChanged += 1;
  });
  const transport: StdioClientTransport = await connectStdioGateway(client, config, join(directory, 'state'));
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const connected = client;
  expect((await connected.listTools()).tools.map((tool) => tool.name)).not.toContain('flaky__sleep');
  await writeFile(gate, '');
  await waitUntil(() => toolsChanged > 0, 'tools/list_changed');
  expect((await connected.listTools()).tools.map((tool) => tool.name)).toContain('flaky__sleep');
  const slept = await connected.callTool({ name: 'flaky__sleep', arguments: { ms: 1 } });
  expect(slept.isError, JSON.stringify(slept)).toBe(false);
  await waitUntil(() => stderr.includes('server "flaky" started again after failing'), 'the note on stderr');
}, 60_000);
