/**
 * An official SDK client connected to the built CLI's `mcp-host serve`, over stdio or over Streamable HTTP (a gateway
 * process of its own, with a bearer token), for tests that check one behaviour over both. `close` closes the client
 * and stops what was started for it.
 */
import type { Client } from '@modelcontextprotocol/client';
import { bearerTransport } from './bearer-transport.js';
import { startGatewayProcess } from './gateway-process.js';
import { connectStdioGateway } from './stdio-gateway.js';

const TOKEN = 'a-gateway-client-test-token-of-enough-length';

export type GatewayTransportKind = 'stdio' | 'http';

export async function connectGatewayClient(
  client: Client,
  over: GatewayTransportKind,
  config: string,
  stateDir: string,
): Promise<{ close: () => Promise<void> }> {
  if (over === 'stdio') {
    // Closing the client ends the gateway it started.
    await connectStdioGateway(client, config, stateDir);
    return { close: () => client.close() };
  }
  return connectHttpGatewayClient(client, config, stateDir);
}

/**
 * `client` connected over Streamable HTTP to a gateway process of its own serving `config`; `close` closes the client
 * and stops the gateway, as does a failure to connect.
 */
export async function connectHttpGatewayClient(
  client: Client,
  config: string,
  stateDir: string,
): Promise<{ close: () => Promise<void> }> {
  const gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
    MCP_HOST_GATEWAY_TOKEN: TOKEN,
  });
  const close = async () => {
    await client.close().catch(() => undefined);
    await gateway.stop();
  };
  try {
    await client.connect(bearerTransport(gateway.url, TOKEN));
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}
