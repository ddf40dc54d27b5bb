/**
 * The live catalog as the host builds it: each server's listing reviewed against the trust store (`review-tools.ts`)
 * in the config's server order, with the host's own tools beside the servers'.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import type { ApprovalsPlace } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import type { ServerConnection } from '../connections/server-connection.js';
import type { Approver } from '../policy/approver.js';
import type { TrustStore } from '../policy/trust-store.js';
import type { HostOptions } from './host-types.js';
import { LiveCatalog } from './live-catalog.js';
import { createToolReview } from './review-tools.js';

interface HostCatalogOptions {
  config: HostConfig;
  connections: ReadonlyMap<string, ServerConnection>;
  approvals: ApprovalsPlace;
  state: { trustStore: TrustStore };
  approver: Approver;
  audit: AuditRecorder;
  hostTools: { entries(): CatalogEntry[] };
  onDiagnostic: (message: string) => void;
}

/** `signal` stops a review in progress (start-up interrupted). */
export function createHostCatalog(
  { signal, relistWaitMs }: Pick<HostOptions, 'signal' | 'relistWaitMs'>,
  options: HostCatalogOptions,
): LiveCatalog {
  const { config, hostTools } = options;
  const catalog: LiveCatalog = new LiveCatalog(options.connections, {
    review: createToolReview({
      config,
      approvals: options.approvals,
      trustStore: options.state.trustStore,
      approver: options.approver,
      audit: () => options.audit,
      // The listings as they are now (after any list_changed), not as they were at start-up.
      otherToolNames: (server) => catalog.listedToolNames(server),
      toolName: (server, tool) => catalog.nameOf(server, tool),
      onNotice: options.onDiagnostic,
      ...(signal === undefined ? {} : { signal }),
    }),
    extraEntries: () => hostTools.entries(),
    onDiagnostic: options.onDiagnostic,
    serverOrder: config.servers.map((server) => server.name),
    ...(relistWaitMs === undefined ? {} : { relistWaitMs }),
  });
  return catalog;
}
