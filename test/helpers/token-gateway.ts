import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { bearerTransport } from './bearer-transport.js';
import { type GatewayProcess, startGatewayProcess } from './gateway-process.js';

const TOKEN = 'a-token-gateway-test-token-of-enough-length';

/**
 * A gateway process of the built CLI that takes a bearer token, and the SDK clients a test connects to it; `stop`
 * closes those clients, then stops the process.
 */
export interface TokenGateway {
  process: GatewayProcess;
  /**
   * Connects `client` with the token, at `path` after the gateway's URL (a profile's `/NAME`), to be closed by `stop`;
   * its transport, to end its session with.
   */
  connect(client: Client, path?: string): Promise<StreamableHTTPClientTransport>;
  /** A new SDK client named `name`, connected as `connect` does. */
  connectNamed(name: string): Promise<Client>;
  stop(): Promise<void>;
}

/** `mcp-host serve --http` on `config` and `stateDir`, taking a bearer token. */
export async function startTokenGateway(config: string, stateDir: string): Promise<TokenGateway> {
  const process = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
    MCP_HOST_GATEWAY_TOKEN: TOKEN,
  });
  const clients: Client[] = [];
  const connect = async (client: Client, path = '') => {
    clients.push(client);
    const transport = bearerTransport(`${process.url}${path}`, TOKEN);
    await client.connect(transport);
    return transport;
  };
  return {
    process,
    connect,
    async connectNamed(name) {
      const client = new Client({ name, version: '1.0.0' });
      await connect(client);
      return client;
    },
    async stop() {
      for (const client of clients.splice(0)) await client.close().catch(() => undefined);
      await process.stop();
    },
  };
}
