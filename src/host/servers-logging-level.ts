/**
 * The log level the host asks of all its servers (`host.setServersLoggingLevel`, the gateway's clients' level),
 * kept for the connections it starts later: a server switched on again, or the new connection of a restart when the
 * level was set after the old one was taken away. Each connection asks its session as a crash restart's would.
 */
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/types.js';
import type { ServerConnection } from '../connections/server-connection.js';

export interface ServersLoggingLevel {
  /**
   * Asks each server that logs, through its connection, which remembers the level and sets it again on a restarted
   * server's new session. A server that fails to take it keeps the one it had. A server whose session took this
   * level already is not asked again (most calls ask for no change). A server with no session now (its new process
   * still starting after a crash) is not waited for: its connection asks its next session, once.
   */
  set(level: LoggingLevel): Promise<void>;
  /**
   * Gives a connection about to connect the level: always a fresh one (switched on); one that took over a
   * restarted server's connection only when the level was set while it had none, after what it carried over.
   */
  giveTo(connection: ServerConnection, tookOver: boolean): void;
}

export function createServersLoggingLevel(
  servers: readonly ServerConfig[],
  connections: ReadonlyMap<string, ServerConnection>,
): ServersLoggingLevel {
  let current: LoggingLevel | undefined;
  // Servers that had no connection when the level was last set (switched off, or between a restart's two).
  const passedOver = new Set<string>();
  return {
    async set(level) {
      current = level;
      await Promise.all(
        servers.map(async ({ name }) => {
          const connection = connections.get(name);
          if (connection === undefined) return void passedOver.add(name);
          passedOver.delete(name);
          if (!connection.hasSession) return connection.setLoggingLevelWhenConnected(level);
          if (connection.sdkClient?.getServerCapabilities()?.logging === undefined) return;
          if (connection.loggingLevelTaken === level) return;
          await connection.setLoggingLevel(level).catch(() => undefined);
        }),
      );
    },
    giveTo(connection, tookOver) {
      const missed = passedOver.delete(connection.name);
      if (current !== undefined && (!tookOver || missed)) connection.setLoggingLevelWhenConnected(current);
    },
  };
}
