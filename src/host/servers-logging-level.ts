/**
 * The log level the host asks of all its servers (`host.setServersLoggingLevel`, the gateway's clients' level), and
 * the one asked of a single server (`host.setServerLoggingLevel`, the web UI's control of it), kept for the
 * connections it starts later: a server switched on again, or the new connection of a restart when the level was set
 * after the old one was taken away. Each connection asks its session as a crash restart's would.
 */
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/types.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { SingleFlight } from '../connections/single-flight.js';
import { cutLine } from '../text/cut-line.js';

/** How much of a server's reason for not taking a level is told. */
const MAX_REASON_CHARACTERS = 300;

export interface ServersLoggingLevel {
  /**
   * Asks each server that logs, through its connection, which remembers the level and sets it again on a restarted
   * server's new session. A server that fails to take it keeps the one it had, which the host's diagnostics say once
   * per server and level. A server whose session took this level already is not asked again (most calls ask for no
   * change). A server with no session now (its new process still starting after a crash) is not waited for: its
   * connection asks its next session, once. A server still to answer a level asked before is asked once it has, for
   * the level last set by then.
   */
  set(level: LoggingLevel): Promise<void>;
  /**
   * Resolves once the server was asked for the level last `set`, where it is to be asked (at once when its session
   * took it, it has no session, or it does not log): what a call to it waits for, and not for the other servers.
   */
  askedOf(name: string): Promise<void>;
  /**
   * Asks one server, through its connection, for a level of its own, which its later connections are given in place
   * of the level of all servers until that is set again. Fails as the request does, keeping nothing.
   */
  setFor(name: string, level: LoggingLevel): Promise<void>;
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
  // Servers asked for a level of their own since the level of all was last set.
  const ownLevels = new Map<string, LoggingLevel>();
  // Servers that had no connection when the level was last set (switched off, or between a restart's two).
  const passedOver = new Set<string>();
  // Per server, one level request at a time: whether its session took the level is known only once the one in flight
  // is answered (another level then wanted would be passed over as taken), and a server over HTTP may take two requests
  // in flight out of order. Those set meanwhile are asked as one, for the level last set.
  const asking = new Map<string, SingleFlight<void>>();
  // Per server, the asking the level last set joined: what a call waits for. Asking again for a call would ask a
  // server that refuses the level, or never answers, a second time before the call goes.
  const lastAsked = new Map<string, Promise<void>>();
  // Told once per server and level: every client's request asks again, and a server that refuses once refuses each time.
  const refusalsTold = new Set<string>();
  const tellRefusal = (connection: ServerConnection, level: LoggingLevel, error: unknown): void => {
    const key = JSON.stringify([connection.name, level]);
    if (refusalsTold.has(key)) return;
    refusalsTold.add(key);
    connection.diagnose(
      `did not take the log level "${level}" and logs at the one it had: ${cutLine(error instanceof Error ? error.message : String(error), MAX_REASON_CHARACTERS)}`,
    );
  };
  const askCurrent = async (name: string): Promise<void> => {
    const connection = connections.get(name);
    const level = current;
    if (level === undefined) return;
    // Asked after one in flight, in the middle of a restart: its next connection is given it.
    if (connection === undefined) return void passedOver.add(name);
    if (!connection.hasSession) return connection.setLoggingLevelWhenConnected(level);
    if (connection.sdkClient?.getServerCapabilities()?.logging === undefined) return;
    if (connection.loggingLevelTaken === level) return;
    await connection.setLoggingLevel(level).catch((error: unknown) => tellRefusal(connection, level, error));
  };
  return {
    async set(level) {
      current = level;
      ownLevels.clear();
      await Promise.all(
        servers.map(({ name }) => {
          if (!connections.has(name)) {
            lastAsked.delete(name);
            return void passedOver.add(name);
          }
          passedOver.delete(name);
          let flight = asking.get(name);
          if (flight === undefined) {
            flight = new SingleFlight(() => askCurrent(name));
            asking.set(name, flight);
          }
          const asked = flight.run();
          lastAsked.set(name, asked);
          return asked;
        }),
      );
    },
    askedOf(name) {
      return lastAsked.get(name) ?? Promise.resolve();
    },
    async setFor(name, level) {
      const connection = connections.get(name);
      if (connection === undefined) throw new Error(`no connection to server "${name}"`);
      await connection.setLoggingLevel(level);
      ownLevels.set(name, level);
    },
    giveTo(connection, tookOver) {
      const missed = passedOver.delete(connection.name);
      const own = ownLevels.get(connection.name);
      // A restart's connection carries over the level its server's last connection was asked, its own among them.
      if (own !== undefined && !tookOver) connection.setLoggingLevelWhenConnected(own);
      else if (own === undefined && current !== undefined && (!tookOver || missed)) {
        connection.setLoggingLevelWhenConnected(current);
      }
    },
  };
}
