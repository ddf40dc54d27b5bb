/**
 * Starts every enabled server at once and lists their tools. One server failing to start or to
 * list does not stop the others: its failure is reported and the rest carry on. A server whose config cannot be
 * completed (an unset environment variable) is not started and is reported the same way.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/types.js';
import { ServerConnection, type ServerConnectionOptions } from '../connections/server-connection.js';
import { redactSecrets } from '../text/redact-secrets.js';

export interface ConnectedServers {
  connections: ServerConnection[];
  tools: Array<{ server: string; tools: Tool[] }>;
  failures: Array<{ server: string; message: string }>;
}

export async function connectServers(
  servers: readonly ServerConfig[],
  options: ServerConnectionOptions,
): Promise<ConnectedServers> {
  const enabled = servers.filter((server) => !server.disabled);
  const failures: ConnectedServers['failures'] = enabled.flatMap((server) =>
    server.unavailable === undefined
      ? []
      : [{ server: server.name, message: `server "${server.name}" was not started: ${server.unavailable}` }],
  );
  const connections = enabled
    .filter((server) => server.unavailable === undefined)
    .map((config) => new ServerConnection(config, options));
  const tools: ConnectedServers['tools'] = [];
  await Promise.all(
    connections.map(async (connection) => {
      if (!(await connection.connect())) {
        failures.push({ server: connection.name, message: connection.status().lastError ?? 'failed to connect' });
        return;
      }
      try {
        tools.push({ server: connection.name, tools: await connection.listTools() });
      } catch (error) {
        const message = redactSecrets(error instanceof Error ? error.message : String(error), options.secrets ?? []);
        failures.push({
          server: connection.name,
          message: `server "${connection.name}" failed to list its tools: ${message}`,
        });
      }
    }),
  );
  // Deterministic order whatever order the servers answered in.
  failures.sort((left, right) => left.server.localeCompare(right.server));
  tools.sort((left, right) => left.server.localeCompare(right.server));
  return { connections, tools, failures };
}
