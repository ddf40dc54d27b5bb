/**
 * Trust changes made outside a run — `mcp-host trust` and the web UI's Trust page — go to the audit log through
 * here: the `trust-change` record a run's recorder writes (`trustChangeRecord`), appended by the JSONL log with its
 * permissions, redaction and torn-line handling.
 */

import { createRunId, type TrustChangeFields, trustChangeRecord } from './audit-record.js';
import { createJsonlAuditLog } from './jsonl-audit-log.js';

export interface TrustChangeLog {
  readonly file: string;
  /** Appends one record at once; throws when it cannot be written. */
  record(change: Omit<TrustChangeFields, 'by'>): void;
  close(): void;
}

/**
 * Opens the log at `file` for the changes of one command or request: `by` names where they were made
 * (`command-line`, `web`), and they share one run id.
 */
export function openTrustChangeLog(file: string, options: { secrets: readonly string[]; by: string }): TrustChangeLog {
  const log = createJsonlAuditLog(file, { secrets: options.secrets });
  const runId = createRunId();
  return {
    file,
    record(change) {
      log.write(trustChangeRecord({ ...change, by: options.by }, new Date().toISOString(), runId));
    },
    close: () => log.close(),
  };
}
