/**
 * Reads the audit log back, for `mcp-host audit` and for tests: streams the file (it only grows), keeps the
 * records that pass the filter, and skips lines that do not parse — in practice only a last line torn by a host
 * killed mid-write — counting them so the reader can say so instead of hiding it.
 */

import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { MAX_JSON_DEPTH, parseJsonWithinDepth } from '../json/json-depth.js';
import { OPEN_WITHOUT_WAITING, openHandleAndExamine } from '../json/read-bounded-file.js';
import { errorCodeOf } from '../json/write-json-file.js';
import { matchesGlob } from '../policy/glob.js';
import { AuditLineSplitter } from './audit-line-splitter.js';
import { type AuditRecord, isAuditRecord } from './audit-record.js';

export interface AuditLogFilter {
  /** Records at or after this time. */
  since?: Date;
  /** Exact server name. */
  server?: string;
  /** A glob over the namespaced or the server's own tool name (`fs__*`, `write_file`). */
  tool?: string;
  /** Exact run id: the records of one host run. */
  runId?: string;
}

interface ReadAuditLogOptions {
  /**
   * Keep only the last this many records that pass the filter: a reader showing the latest (the web UI, `/audit`)
   * then holds that many at a time, not every record of a log that only grows.
   */
  keepLast?: number;
}

interface AuditLogContents {
  records: AuditRecord[];
  /** False when there is no log at the path yet. */
  exists: boolean;
  /** Lines that were not whole records (a torn last line, or damage), those past the line bound among them. */
  skippedLines: number;
  /** Lines longer than `MAX_AUDIT_LINE_BYTES`, passed over unread. */
  overlongLines: number;
  /** Whether the last line had no newline and did not parse: a write cut short. */
  tornLastLine: boolean;
  /** Bytes read up to the end of the last complete line: where `followAuditLog` should continue. */
  endOffset: number;
  /**
   * The servers any record names, whatever the filter, so a name in none can be told from one that matched nothing;
   * undefined past `MAX_SERVER_NAMES_KEPT` distinct names.
   */
  serverNames: Set<string> | undefined;
}

/** Distinct server names kept while a log is read: a config names a handful, and a log is any size. */
const MAX_SERVER_NAMES_KEPT = 10_000;

/** The record, its arguments and their deepest nesting. */
const MAX_RECORD_DEPTH = MAX_JSON_DEPTH + 1;

/** One line of the log as a record, or undefined when it is not one. */
export function parseAuditLine(line: string): AuditRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    // Nested deeper than any record the host writes (arguments are refused past MAX_JSON_DEPTH), the line is no
    // record, and would overflow the stack of whatever walked it next.
    const value: unknown = parseJsonWithinDepth(line, 'an audit record', MAX_RECORD_DEPTH);
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
  if (filter.runId !== undefined && record.runId !== filter.runId) return false;
  if (filter.tool !== undefined) {
    const pattern = filter.tool;
    if (!toolNamesOf(record).some((name) => matchesGlob(pattern, name))) return false;
  }
  return true;
}

/** Bytes read at a time; each read has a buffer of its own, as the splitter may hold pieces of it. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The log opened for reading, or undefined when there is none. Opened without waiting (a named pipe would block
 * the reader until something wrote to it) and refused unless a regular file: a pipe or a link to /dev/zero is no log.
 */
export async function openAuditLog(file: string): Promise<FileHandle | undefined> {
  let opened: { handle: FileHandle; stats: Stats };
  try {
    opened = await openHandleAndExamine(file, OPEN_WITHOUT_WAITING);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unreadable(file, error);
  }
  const { handle, stats } = opened;
  if (!stats.isFile()) {
    await handle.close();
    throw new Error(
      `could not read the audit log ${file}: it is a ${stats.isDirectory() ? 'folder' : 'device, pipe or socket'}, not a file.`,
    );
  }
  return handle;
}

/** Reads from `position` to the end of the file as it is now, a chunk at a time; returns the bytes read. */
export async function readToEnd(
  handle: FileHandle,
  position: number,
  onChunk: (chunk: Buffer) => void,
): Promise<number> {
  let read = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position + read);
    if (bytesRead === 0) return read;
    read += bytesRead;
    onChunk(chunk.subarray(0, bytesRead));
  }
}

export async function readAuditLog(
  file: string,
  filter: AuditLogFilter = {},
  options: ReadAuditLogOptions = {},
): Promise<AuditLogContents> {
  const { keepLast } = options;
  const contents: AuditLogContents = {
    records: [],
    exists: true,
    skippedLines: 0,
    overlongLines: 0,
    tornLastLine: false,
    endOffset: 0,
    serverNames: new Set(),
  };
  const onLine = (line: string): void => {
    if (line.trim() === '') return;
    const record = parseAuditLine(line);
    if (record === undefined) contents.skippedLines += 1;
    else consider(record);
  };
  const consider = (record: AuditRecord): void => {
    noteServerName(record);
    if (matchesAuditFilter(record, filter)) keep(record);
  };
  const noteServerName = (record: AuditRecord): void => {
    if (!('server' in record) || typeof record.server !== 'string' || contents.serverNames === undefined) return;
    contents.serverNames.add(record.server);
    if (contents.serverNames.size > MAX_SERVER_NAMES_KEPT) contents.serverNames = undefined;
  };
  // Past twice the bound the oldest go at once, so each record is moved at most once.
  const keep = (record: AuditRecord): void => {
    contents.records.push(record);
    if (keepLast !== undefined && contents.records.length >= 2 * keepLast)
      contents.records.splice(0, contents.records.length - keepLast);
  };
  const splitter = new AuditLineSplitter(onLine, () => {
    contents.skippedLines += 1;
    contents.overlongLines += 1;
  });
  const handle = await openAuditLog(file);
  if (handle === undefined) return { ...contents, exists: false };
  try {
    await readToEnd(handle, 0, (chunk) => splitter.push(chunk));
  } catch (error) {
    throw unreadable(file, error);
  } finally {
    await handle.close();
  }
  contents.endOffset = splitter.consumed;
  const rest = splitter.rest();
  if (rest !== undefined && rest.trim() !== '') {
    // A last line without its newline: whole if it parses (the write was cut just before the newline).
    const record = parseAuditLine(rest);
    if (record === undefined) {
      contents.skippedLines += 1;
      contents.tornLastLine = true;
    } else {
      consider(record);
    }
  }
  if (keepLast !== undefined) contents.records.splice(0, Math.max(0, contents.records.length - keepLast));
  return contents;
}

function unreadable(file: string, error: unknown): Error {
  return new Error(`could not read the audit log ${file} (${errorCodeOf(error)}).`);
}
