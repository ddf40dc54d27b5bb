import type { ServerConnection } from '../connections/server-connection.js';
import type { AuditRecorder } from './audit-recorder.js';

/** A `server-start` record for a server that is connected (one that is not has nothing to record yet). */
export async function recordServerStart(audit: AuditRecorder, connection: ServerConnection): Promise<void> {
  const status = connection.status();
  if (status.state !== 'connected') return;
  await audit.serverStart({
    server: status.name,
    transport: status.transport,
    trust: connection.config.trust,
    ...(status.pid === undefined ? {} : { pid: status.pid }),
    ...(status.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }),
    ...(status.toolCount === undefined ? {} : { toolCount: status.toolCount }),
  });
}
