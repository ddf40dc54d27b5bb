import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AUDIT_LOG_FILE_NAME } from '../../src/audit/audit-log-path.js';
import type { AuditRecord } from '../../src/audit/audit-record.js';

/**
 * The records of the JSONL audit log in `stateDir`, none while it is not written yet; a line that is not JSON throws
 * (the file must stay whole). `Entry` is `AuditRecord` for a test that narrows records by their type, and loose for
 * one that only reads a field or two.
 */
export async function auditRecords<Entry extends AuditRecord | Record<string, unknown> = Record<string, unknown>>(
  stateDir: string,
): Promise<Entry[]> {
  const text = await readFile(join(stateDir, AUDIT_LOG_FILE_NAME), 'utf8').catch(() => '');
  // What follows the last line break is a record still being written: it is read once it is whole.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Entry);
}
