/** A configured server's state as the host reports it: its connection's, switched off, or never started. */
import type { ServerConfig } from '../config/types.js';
import type { ServerConnection, ServerStatus } from '../connections/server-connection.js';
import type { HostServerStatus } from './host-types.js';

interface ServerStatusSources {
  connections: ReadonlyMap<string, ServerConnection>;
  /** The listed tools the host cannot run (they require MCP tasks). */
  unsupportedTools: (server: string) => NonNullable<HostServerStatus['unsupportedTools']>;
  isDisabled: (server: string) => boolean;
}

export function serverStatus(server: ServerConfig, sources: ServerStatusSources): HostServerStatus {
  const status = sources.connections.get(server.name)?.status() ?? notStartedStatus(server);
  const unsupported = sources.unsupportedTools(server.name);
  return {
    ...status,
    ...(sources.isDisabled(server.name) ? { state: 'idle' as const, disabled: true } : {}),
    ...(unsupported.length === 0 ? {} : { unsupportedTools: unsupported }),
  };
}

function notStartedStatus(server: ServerConfig): ServerStatus {
  return {
    name: server.name,
    state: server.disabled ? 'idle' : 'failed',
    transport: server.transport,
    ...(server.unavailable === undefined || server.disabled ? {} : { lastError: server.unavailable }),
  };
}
