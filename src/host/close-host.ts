/** Stopping what a host started: on `close()`, and when its start-up is interrupted or fails. */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { AuditSink } from '../audit/audit-sink.js';
import type { ServerConnection } from '../connections/server-connection.js';
import type { ResultStore } from '../content/result-store.js';

interface StartedParts {
  /** The connections as they are now (a restart replaces one). */
  connections: () => Iterable<ServerConnection>;
  features: { close(): Promise<void> };
  state: { audit: AuditSink; results: ResultStore; staleResultsRemoved: Promise<unknown> };
}

/** Each server-start gets its server-exit: the servers still up are closed by the host, as asked. */
async function closeHost(parts: StartedParts, audit: AuditRecorder): Promise<void> {
  const connections = [...parts.connections()];
  for (const connection of connections) {
    if (connection.status().state === 'connected')
      await audit.serverExit({ server: connection.name, reason: 'closed' });
  }
  await Promise.all(connections.map((connection) => connection.close()));
  await parts.features.close();
  await parts.state.results.close().catch(() => undefined);
  await parts.state.staleResultsRemoved;
  await parts.state.audit.close();
}

/** `host.close()`: the first call releases the open conversations and closes the rest; a later one does nothing. */
export function hostClose(
  parts: StartedParts,
  audit: AuditRecorder,
  conversations: { releaseAll(): void },
): () => Promise<void> {
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    conversations.releaseAll();
    await closeHost(parts, audit);
  };
}

/** How a start-up stops early: `abandon` on a failure, `stopIfInterrupted` at each point it may be interrupted. */
export function startUpStops(
  parts: StartedParts,
  signal: AbortSignal | undefined,
  diagnostic: (message: string) => void,
) {
  const abandon = (error: unknown) => abandonStart(parts, error, signal?.aborted === true, diagnostic);
  return {
    abandon,
    stopIfInterrupted: async (): Promise<void> => {
      if (signal?.aborted) await abandon(signal.reason);
    },
  };
}

/** Start-up interrupted (or failed): close what was started, whatever step it had reached, then throw. */
async function abandonStart(
  parts: StartedParts,
  error: unknown,
  interrupted: boolean,
  diagnostic: (message: string) => void,
): Promise<never> {
  const connections = [...parts.connections()];
  await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
  // Stopped on purpose: a server killed mid-initialize did not "fail to start", whatever its exit looked like.
  if (interrupted) {
    for (const connection of connections) diagnostic(`server "${connection.name}" stopped: start-up was interrupted`);
  }
  await parts.features.close().catch(() => undefined);
  await parts.state.audit.close();
  throw error;
}
