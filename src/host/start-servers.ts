/**
 * The servers a host starts with: connected and listed (`connect-servers.ts`) into the host's connections, then,
 * unless start-up was interrupted meanwhile, each failure and each server's withheld instructions told, and each
 * start recorded in the audit log.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { recordServerStart } from '../audit/record-server-start.js';
import type { ServerConfig } from '../config/types.js';
import type { ServerConnection, ServerConnectionOptions } from '../connections/server-connection.js';
import { withheldInstructionNotices } from '../skills/connected-server-instructions.js';
import { type ConnectedServers, connectServers } from './connect-servers.js';

interface StartServersSettings {
  servers: readonly ServerConfig[];
  connectionOptions: ServerConnectionOptions;
  /** The host's connections, filled here. */
  connections: Map<string, ServerConnection>;
  audit: AuditRecorder;
  onDiagnostic: (message: string) => void;
  /** Stops start-up (closing what was started, and throwing) when it was interrupted. */
  stopIfInterrupted: () => Promise<void>;
}

export async function startServers(settings: StartServersSettings): Promise<ConnectedServers> {
  const { servers, connections, onDiagnostic } = settings;
  const connected = await connectServers(servers, settings.connectionOptions);
  for (const connection of connected.connections) connections.set(connection.name, connection);
  await settings.stopIfInterrupted();
  for (const failure of connected.failures) onDiagnostic(failure.message);
  for (const notice of withheldInstructionNotices(servers, connections)) onDiagnostic(notice);
  for (const connection of connected.connections) await recordServerStart(settings.audit, connection);
  return connected;
}
