/**
 * Connects an MCP client to an in-process MCP server over the SDK's linked in-memory transports:
 * the fastest way to test a server, or host code that needs a live client, with no process and no
 * port.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

/** Anything that serves MCP over a transport, such as `McpServer` from `@modelcontextprotocol/server`. */
export interface ConnectableServer {
  connect(transport: InMemoryTransport): Promise<void>;
  close?(): Promise<void>;
}

export interface InMemoryServerPair {
  client: Client;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

export async function createInMemoryServerPair(
  server: ConnectableServer,
  options: { clientName?: string } = {},
): Promise<InMemoryServerPair> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: options.clientName ?? 'mcp-host-test-client', version: '0.0.0' });
  try {
    await client.connect(clientTransport);
  } catch (error) {
    await server.close?.();
    throw error;
  }
  return {
    client,
    async close() {
      await client.close();
      await server.close?.();
    },
  };
}
