/**
 * `mcp-host serve` over stdio as an MCP client meets it: the built CLI started by the official SDK's stdio transport
 * with a config and a state folder of the test's own, `client` connected to it. Closing the client stops the gateway.
 */
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cliPath } from './project.js';

export async function connectStdioGateway(
  client: Client,
  config: string,
  stateDir: string,
): Promise<StdioClientTransport> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--config', config, '--state-dir', stateDir],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return transport;
}
