/**
 * Reads the audit log back, for `mcp-host audit` and for tests: streams the file (it only grows), keeps the
 * records that pass the filter, and skips lines that do not parse — in practice only a last line torn by a host
 * killed mid-write — counting them so the reader can say so instead of hiding it.
 */

import { createReadStream } from 'node:fs';
import { matchesGlob } from '../policy/glob.js';
import { type AuditRecord, isAuditRecord } from './audit-record.js';

export interface AuditLogFilter {
  /** Records at or after this time. */
  since?: Date;
  /** Exact server name. */
  server?: string;
  /** A glob over the namespaced or the server's own tool name (`fs__*`, `write_file`). */
  tool?: string;
}

interface AuditLogContents {
  records: AuditRecord[];
  /** False when there is no log at the path yet. */
  exists: boolean;
  /** Lines that were not whole records (a torn last line, or damage). */
  skippedLines: number;
  /** Whether the last line had no newline and did not parse: a write cut short. */
  tornLastLine: boolean;
  /** Bytes read up to the end of the last complete line: where `followAuditLog` should continue. */
  endOffset: number;
}

/** One line of the log as a record, or undefined when it is not one. */
export function parseAuditLine(line: string): AuditRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isAuditRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function toolNamesOf(record: AuditRecord): string[] {
  switch (record.type) {
    case 'tool-call':
      return [record.tool, record.originalTool];
    case 'approval':
      return [record.tool];
    case 'trust-change':
      return record.tool === undefined ? [] : [record.tool];
    default:
      return [];
  }
}

export function matchesAuditFilter(record: AuditRecord, filter: AuditLogFilter): boolean {
  if (filter.since !== undefined) {
    const time = Date.parse(record.time);
    if (Number.isNaN(time) || time < filter.since.getTime()) return false;
  }
  if (filter.server !== undefined && record.server !== filter.server) return false;
  if (filter.tool !== undefined) {
    const pattern = filter.tool;
    if (!toolNamesOf(record).some((name) => matchesGlob(pattern, name))) return false;
  }
  return true;
}

/**
 * Splits complete lines off `buffer`, handing each to `onLine` with where it starts in `buffer`; returns what is left
 * (an unfinished line) and how many bytes were consumed. Works on bytes so a multi-byte character split across reads
 * stays whole.
 */
export function takeCompleteLines(
  buffer: Buffer,
  onLine: (line: string, start: number) => void,
): { rest: Buffer; consumed: number } {
  let start = 0;
  for (;;) {
    const end = buffer.indexOf(0x0a, start);
    if (end < 0) break;
    onLine(buffer.toString('utf8', start, end), start);
    start = end + 1;
  }
  return { rest: buffer.subarray(start), consumed: start };
}

export async function readAuditLog(file: string, filter: AuditLogFilter = {}): Promise<AuditLogContents> {
  const contents: AuditLogContents = {
    records: [],
    exists: true,
    skippedLines: 0,
    tornLastLine: false,
    endOffset: 0,
  };
  // Lines are handed over from a buffer that starts where the last complete line ended.
  const onLine = (line: string): void => {
    if (line.trim() === '') return;
    const record = parseAuditLine(line);
    if (record === undefined) contents.skippedLines += 1;
    else if (matchesAuditFilter(record, filter)) contents.records.push(record);
  };
  let pending: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(file)) {
      const taken = takeCompleteLines(Buffer.concat([pending, chunk as Buffer]), onLine);
      pending = taken.rest;
      contents.endOffset += taken.consumed;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...contents, exists: false };
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`Could not read the audit log ${file} (${code}).`);
  }
  if (pending.length > 0) {
    // A last line without its newline: whole if it parses (the write was cut just before the newline).
    const record = parseAuditLine(pending.toString('utf8'));
    if (record === undefined) {
      contents.skippedLines += 1;
      contents.tornLastLine = true;
    } else if (matchesAuditFilter(record, filter)) {
      contents.records.push(record);
    }
  }
  return contents;
}
