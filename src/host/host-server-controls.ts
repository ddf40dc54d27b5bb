/**
 * The host's server controls and status (`servers()`, `restartServer`, `disableServer`, `enableServer`): a server
 * started again has its listing reviewed before the control resolves, a stopped one's tools leave the catalog, and
 * each start and stop is recorded in the audit log.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { recordServerStart } from '../audit/record-server-start.js';
import type { HostConfig, ServerConfig } from '../config/types.js';
import type { ServerConnection, ServerConnectionOptions } from '../connections/server-connection.js';
import type { Host } from './host-types.js';
import type { LiveCatalog } from './live-catalog.js';
import { createServerControls } from './server-controls.js';
import { serverStatus } from './server-status.js';
import type { ServersLoggingLevel } from './servers-logging-level.js';

interface HostServerControlsSettings {
  config: HostConfig;
  connections: Map<string, ServerConnection>;
  connectionOptions: ServerConnectionOptions;
  loggingLevel: ServersLoggingLevel;
  catalog: LiveCatalog;
  audit: AuditRecorder;
  /** `HostOptions.onToolsChanged`: a server started or stopped here changes the catalog as a listing change does. */
  onToolsChanged: ((server: string) => void) | undefined;
}

export function hostServerControls(
  settings: HostServerControlsSettings,
): Pick<Host, 'servers' | 'restartServer' | 'disableServer' | 'enableServer'> {
  const { connections, catalog, audit } = settings;
  const servers = settings.config.servers;
  const controls = createServerControls({
    servers,
    connections,
    connectionOptions: settings.connectionOptions,
    loggingLevel: settings.loggingLevel,
    relist: async (server) => {
      await catalog.relist(server);
      settings.onToolsChanged?.(server);
    },
    forget: (server) => {
      // A server that was down had no tools to take away: nothing changed to tell.
      const had = catalog.current().entries.some((entry) => entry.server === server);
      catalog.forget(server);
      if (had) settings.onToolsChanged?.(server);
    },
    onStarted: (connection) => recordServerStart(audit, connection),
    onStopped: (server, reason) => audit.serverExit({ server, reason }),
    status: (server) => statusOf(servers.find((candidate) => candidate.name === server)!),
  });
  const statusOf = (server: ServerConfig) =>
    serverStatus(server, {
      connections,
      unsupportedTools: (name) => catalog.unsupportedTools(name),
      isDisabled: controls.isDisabled,
    });
  return {
    servers: () => servers.map(statusOf),
    restartServer: (server) => controls.restart(server),
    disableServer: (server) => controls.disable(server),
    enableServer: (server) => controls.enable(server),
  };
}
