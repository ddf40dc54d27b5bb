/** Asking a profile's servers for the log level its clients want. */

import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { Host } from '../host/create-host.js';

/**
 * Asks each server that logs, through its connection, which remembers the level and sets it again on a restarted
 * server's new session. A server that fails to take it keeps the one it had. A server whose session took this level
 * already is not asked again: every client's `logging/setLevel` comes here, most asking for no change. A server with
 * no session now (its new process still starting after a crash) is not waited for: its connection asks its next
 * session, once, as it would the level of the session before.
 */
export async function setServersLogLevel(host: Host, level: LoggingLevel): Promise<void> {
  await Promise.all(
    host.config.servers.map(async (entry) => {
      const connection = host.connection(entry.name);
      if (connection === undefined) return;
      if (!connection.hasSession) return connection.setLoggingLevelWhenConnected(level);
      if (connection.sdkClient?.getServerCapabilities()?.logging === undefined) return;
      if (connection.loggingLevelTaken === level) return;
      await connection.setLoggingLevel(level).catch(() => undefined);
    }),
  );
}
