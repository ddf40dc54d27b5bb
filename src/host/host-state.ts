/**
 * What the host keeps between runs, opened once per host: the state folder, the trust store
 * (pinned definitions, approvals), the audit log and the store of full results that were cut.
 */
import { join } from 'node:path';
import { resolveAuditLogPath } from '../audit/audit-log-path.js';
import type { AuditSink } from '../audit/audit-sink.js';
import { createMemoryAuditSink } from '../audit/audit-sink.js';
import { createJsonlAuditLog } from '../audit/jsonl-audit-log.js';
import { ensureStateDir, resolveStateDir } from '../config/state-dir.js';
import type { HostConfig } from '../config/types.js';
import { createResultStore, type ResultStore } from '../content/result-store.js';
import { removeStaleResultFolders, resultSessionFolderName } from '../content/stale-result-folders.js';
import { TrustStore } from '../policy/trust-store.js';
import { stripControlCodes } from '../text/strip-control-codes.js';

interface HostStateOptions {
  /** `--state-dir`; default `MCP_HOST_STATE_DIR`, then the XDG state home. */
  stateDir?: string;
  /** `--audit-file`; default the config's `auditFile`, `MCP_HOST_AUDIT_FILE`, then `audit.jsonl` in the state folder. */
  auditFile?: string;
  /** A sink of the caller's instead of the JSONL file (`false`: keep records in memory only). */
  auditSink?: AuditSink | false;
  /** Keep trust decisions in memory only (tests, one-off runs). */
  trustStore?: TrustStore;
}

interface HostState {
  stateDir: string;
  trustStore: TrustStore;
  audit: AuditSink & { file?: string; close?: () => void };
  /** This session's cut results, deleted on close. */
  results: ResultStore;
  /** Deleting what earlier sessions that were killed left in the results folder (started at open). */
  staleResultsRemoved: Promise<unknown>;
}

export function openHostState(
  config: HostConfig,
  options: HostStateOptions,
  env: Record<string, string | undefined>,
  cwd: string,
  onDiagnostic: (message: string) => void,
): HostState {
  const stateDir = ensureStateDir(resolveStateDir({ flag: options.stateDir, env, cwd }));
  // Approvals are kept per config file, so two projects that both name a server `fs` do not undo each other's.
  const trustStore = options.trustStore ?? TrustStore.inStateDir(stateDir, { scope: config.file ?? '' });
  reportTrustStoreChanges(trustStore, onDiagnostic);
  const audit =
    options.auditSink === false
      ? createMemoryAuditSink()
      : (options.auditSink ??
        createJsonlAuditLog(resolveAuditLogPath({ flag: options.auditFile ?? config.auditFile, stateDir, env, cwd }), {
          secrets: config.secrets,
        }));
  const resultsRoot = join(stateDir, 'results');
  const results = createResultStore(join(resultsRoot, resultSessionFolderName()), {
    onWriteError: (error) => onDiagnostic(`could not keep a cut tool result: ${error.message}`),
  });
  const staleResultsRemoved = removeStaleResultFolders(resultsRoot).catch(() => undefined);
  return { stateDir, trustStore, audit, results, staleResultsRemoved };
}

/** One diagnostic when the trust store was changed by something other than a host since a host last wrote it. */
function reportTrustStoreChanges(trustStore: TrustStore, onDiagnostic: (message: string) => void): void {
  const changes = trustStore.changesSinceLastWrite();
  if (changes.length === 0) return;
  onDiagnostic(
    `the trust store ${trustStore.file} was changed outside mcp-host since it last wrote it; check that you made these changes:\n${changes.map((line) => `  ${stripControlCodes(line)}`).join('\n')}`,
  );
}
