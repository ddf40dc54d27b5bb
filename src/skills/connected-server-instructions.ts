/** The instructions of the servers connected now, as the system prompt may include them. */
import type { ServerConfig } from '../config/types.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { boundServerInstructions, instructionsAllowed, type ServerInstructions } from './server-instructions.js';

type Connections = ReadonlyMap<string, Pick<ServerConnection, 'state' | 'instructions'>>;

/** In config order: each connected server's that may go into the prompt, bounded. */
export function connectedServerInstructions(
  servers: readonly ServerConfig[],
  connections: Connections,
): ServerInstructions[] {
  return servers.flatMap((server) => {
    const connection = connections.get(server.name);
    if (!instructionsAllowed(server) || connection?.state !== 'connected') return [];
    const bounded = boundServerInstructions(server.name, connection.instructions);
    return bounded === undefined ? [] : [bounded];
  });
}

/** One notice per server whose instructions are left out because it is untrusted. */
export function withheldInstructionNotices(servers: readonly ServerConfig[], connections: Connections): string[] {
  return servers.flatMap((server) => {
    const sent = connections.get(server.name)?.instructions;
    if (instructionsAllowed(server) || sent === undefined || sent.trim() === '') return [];
    return [
      `server "${server.name}" sent instructions for the model; they are left out because the server is untrusted (set "allowInstructions": true on it to include them)`,
    ];
  });
}
