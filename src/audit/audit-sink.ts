/**
 * The seam between the host and wherever its audit trail goes. The loop records every tool call and the events
 * around it through this interface and does not care whether that is a JSONL file (the default), memory (tests,
 * embedding) or something a deployment adds. A record handed to `write` must be stored whole by the time `write`
 * returns (or its promise resolves): the loop waits for it before the call's result goes back to the model, so a
 * host killed afterwards cannot have acted without a trace.
 */

import type { AuditRecord } from './audit-record.js';

export interface AuditSink {
  write(record: AuditRecord): void | Promise<void>;
  close(): void | Promise<void>;
}

export interface MemoryAuditSink extends AuditSink {
  readonly records: AuditRecord[];
}

/** Keeps records in an array (no redaction: nothing leaves the process). */
export function createMemoryAuditSink(): MemoryAuditSink {
  const records: AuditRecord[] = [];
  return {
    records,
    write(record) {
      records.push(structuredClone(record));
    },
    close() {},
  };
}
