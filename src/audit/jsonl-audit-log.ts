/**
 * The default audit sink: an append-only JSONL file, one record per line. Each record goes to the file in a
 * single synchronous write on a descriptor opened for appending, so it is in the file (the kernel's, at least)
 * before the call's result goes back, and a host killed at any moment leaves whole lines plus at most one torn
 * last line, which readers skip. A torn line left by an earlier host is closed off with a newline on open, so the
 * next record starts a fresh line instead of gluing onto it.
 */

import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { assertPrivatePath } from '../json/private-path.js';
import type { AuditRecord, ToolCallRecord } from './audit-record.js';
import type { AuditSink } from './audit-sink.js';
import { redactArguments, redactValues } from './redact.js';

/** Owner only: the log holds what the model did, with which arguments. */
const AUDIT_LOG_FILE_MODE = 0o600;

interface JsonlAuditLogOptions {
  /** Values to redact wherever they occur (`HostConfig.secrets`). */
  secrets?: readonly string[];
}

interface JsonlAuditLog extends AuditSink {
  readonly file: string;
  write(record: AuditRecord): void;
  close(): void;
}

const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

function writeFully(descriptor: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(descriptor, bytes, written);
}

/** Opens (creating with mode 0600, and its folder with 0700) the log at `file` for appending. */
export function createJsonlAuditLog(file: string, options: JsonlAuditLogOptions = {}): JsonlAuditLog {
  const secrets = options.secrets ?? [];
  assertPrivatePath(file, 'file', 'audit log');
  let descriptor: number | undefined;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Appends always go to the end; reading is needed only to check the last byte below. A link put in place
    // after the check above is not followed.
    descriptor = openSync(file, APPEND_FLAGS, AUDIT_LOG_FILE_MODE);
    const size = fstatSync(descriptor).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(descriptor, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) writeFully(descriptor, Buffer.from('\n'));
    }
  } catch (error) {
    if (descriptor !== undefined) closeSync(descriptor);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`could not open the audit log ${file} (${code}); choose another with --audit-file or --state-dir.`);
  }
  const open = descriptor;
  let closed = false;

  return {
    file,
    write(record: AuditRecord): void {
      if (closed) throw new Error(`the audit log ${file} is closed; records after close are not kept.`);
      const line = `${JSON.stringify(redactRecord(record, secrets))}\n`;
      try {
        // Written as text, without a buffer of its own; a partial write (rare on a file) finishes from bytes.
        const written = writeSync(open, line);
        if (written < Buffer.byteLength(line)) writeFully(open, Buffer.from(line, 'utf8').subarray(written));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new Error(`could not append to the audit log ${file} (${code}); check free space and permissions.`);
      }
    },
    close(): void {
      if (closed) return;
      closed = true;
      closeSync(open);
    },
  };
}

/**
 * Arguments lose secret values and secret-looking keys; every other field loses secret values only. The arguments are
 * walked once (they can be the largest part), and with no secrets to look for the record's own fields are taken as
 * they are: they are the host's strings and numbers, and copying them cost a third of the write.
 */
function redactRecord(record: AuditRecord, secrets: readonly string[]): AuditRecord {
  const none = secrets.every((secret) => secret === '');
  if (record.type !== 'tool-call') return none ? record : (redactValues(record, { secrets }) as AuditRecord);
  const fields = none ? { ...record } : (redactValues({ ...record, arguments: null }, { secrets }) as ToolCallRecord);
  fields.arguments = redactArguments(record.arguments, { secrets });
  return fields;
}
