/**
 * What the host does with what its connections report: a server's messages and exits are told to the user (and an
 * exit recorded), and a changed tool list, a server's or the host's own, makes the catalog be built again and is
 * passed on, so a gateway's clients and the web UI list the tools afresh.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { ServerConnectionOptions } from '../connections/server-connection.js';
import { HOST_TOOLS_SERVER } from './host-tools-server.js';
import type { LiveCatalog } from './live-catalog.js';

interface ServerEventsOptions {
  /** The live catalog, once built: a change before then is seen by its first build. */
  catalog: () => LiveCatalog | undefined;
  audit: AuditRecorder;
  onDiagnostic: (message: string) => void;
  onToolsChanged: ((server: string) => void) | undefined;
}

type ServerEvents = Required<Pick<ServerConnectionOptions, 'onDiagnostic' | 'onToolsChanged' | 'onExit'>> & {
  /** The host's own tools offered changed (the stored-result tool appeared). */
  onHostToolsChanged(): void;
};

export function serverEvents(options: ServerEventsOptions): ServerEvents {
  const { catalog, onDiagnostic, onToolsChanged } = options;
  return {
    onDiagnostic: (server, message) => onDiagnostic(`server "${server}" ${message}`),
    onToolsChanged: (server) => {
      catalog()?.markChanged(server);
      onToolsChanged?.(server);
    },
    onExit: (server, { description, ...fields }) => {
      onDiagnostic(description);
      // Nothing waits on an exit: a record that cannot be written is told, not left to end the process.
      options.audit
        .serverExit({ server, ...fields })
        .catch((error: unknown) =>
          onDiagnostic(
            `the exit of server "${server}" was not recorded: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    },
    onHostToolsChanged: () => {
      catalog()?.invalidate();
      // Told as a server's change is.
      onToolsChanged?.(HOST_TOOLS_SERVER);
    },
  };
}
