/**
 * Restarting a server and switching it off and on while the host runs (the web UI's buttons). Switching off lasts
 * for this host only: the config file is the user's and is never rewritten (`"disabled": true` there makes it last).
 * A server switched off is closed and its tools leave the catalog at once; switched on (or restarted) it is started
 * afresh and its listing is reviewed against the trust store like any other, so neither can widen what it may do.
 */
import type { ServerConfig } from '../config/types.js';
import { ServerConnection, type ServerConnectionOptions } from '../connections/server-connection.js';
import type { HostServerStatus } from './host-types.js';
import type { ServersLoggingLevel } from './servers-logging-level.js';

export class ServerControlError extends Error {}

interface ServerControlsOptions {
  servers: readonly ServerConfig[];
  /** The host's live connections, changed in place: the catalog, resources and prompts read them at each use. */
  connections: Map<string, ServerConnection>;
  connectionOptions: ServerConnectionOptions;
  /** The log level the host asks of its servers, given to the connections started here. */
  loggingLevel: Pick<ServersLoggingLevel, 'giveTo'>;
  /** A fresh connection is up: re-list and review its tools (the catalog changes when this resolves). */
  relist(server: string): Promise<void>;
  /** Drop a server's tools from the catalog now. */
  forget(server: string): void;
  onStarted(connection: ServerConnection): Promise<void>;
  onStopped(server: string, reason: 'restarted' | 'disabled'): Promise<void>;
  status(server: string): HostServerStatus;
}

interface ServerControls {
  restart(server: string): Promise<HostServerStatus>;
  disable(server: string): Promise<HostServerStatus>;
  enable(server: string): Promise<HostServerStatus>;
  /** Switched off in this host (by `disable`, or by the config until `enable`). */
  isDisabled(server: string): boolean;
}

export function createServerControls(options: ServerControlsOptions): ServerControls {
  const disabled = new Set(options.servers.filter((server) => server.disabled).map((server) => server.name));
  // One change at a time per server: a double click must not start two processes.
  const queues = new Map<string, Promise<unknown>>();
  const serially = <T>(server: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(server) ?? Promise.resolve()).catch(() => undefined).then(work);
    queues.set(server, next);
    return next;
  };
  const configOf = (name: string): ServerConfig => {
    const config = options.servers.find((server) => server.name === name);
    if (config === undefined) {
      const names = options.servers.map((server) => server.name).join(', ');
      throw new ServerControlError(`no server is named "${name}" (servers: ${names || 'none'})`);
    }
    return config;
  };
  const stop = async (name: string, reason: 'restarted' | 'disabled') => {
    const previous = options.connections.get(name);
    if (previous === undefined) return;
    const wasUp = previous.state === 'connected';
    options.connections.delete(name);
    options.forget(name);
    await previous.close();
    if (wasUp) await options.onStopped(name, reason);
  };
  const start = async (config: ServerConfig, previous?: ServerConnection) => {
    if (config.unavailable !== undefined) {
      throw new ServerControlError(`server "${config.name}" cannot be started: ${config.unavailable}`);
    }
    const connection = new ServerConnection(config, options.connectionOptions);
    // A restart keeps the server's resource subscriptions and log level; switching it off and on does not. The level
    // asked of the server alone, else the one the host asks of all its servers, is given to one switched on, and the
    // latter to one that had no connection when it was set.
    if (previous !== undefined) connection.carryOver(previous);
    options.loggingLevel.giveTo(connection, previous !== undefined);
    options.connections.set(config.name, connection);
    if (await connection.connect()) {
      await options.onStarted(connection);
      await options.relist(config.name);
    }
  };
  return {
    restart: (name) =>
      serially(name, async () => {
        const config = configOf(name);
        if (disabled.has(name)) throw new ServerControlError(`server "${name}" is disabled; enable it to start it`);
        const previous = options.connections.get(name);
        await stop(name, 'restarted');
        await start(config, previous);
        return options.status(name);
      }),
    disable: (name) =>
      serially(name, async () => {
        configOf(name);
        disabled.add(name);
        await stop(name, 'disabled');
        return options.status(name);
      }),
    enable: (name) =>
      serially(name, async () => {
        const config = configOf(name);
        if (!disabled.has(name)) return options.status(name);
        disabled.delete(name);
        try {
          await start(config);
        } catch (error) {
          disabled.add(name);
          throw error;
        }
        return options.status(name);
      }),
    isDisabled: (name) => disabled.has(name),
  };
}
