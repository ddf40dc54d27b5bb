/**
 * Reads a saved session back: the header, then the records in order, replayed into the transcript as it stands.
 * A torn last line (the host was killed while writing it) is skipped with a warning, as is any line that is not a
 * record this version understands or is longer than the record bound; only a missing or unreadable header is fatal.
 */
import { basename } from 'node:path';
import { parseJsonWithinDepth } from '../json/json-depth.js';
import { readBoundedFile, readFailureText } from '../json/read-bounded-file.js';
import type { Message } from '../providers/types.js';
import { stripControlCodes } from '../text/strip-control-codes.js';
import { answeredToolCalls } from './answered-tool-calls.js';
import { isMessage } from './is-message.js';
import {
  MAX_SESSION_RECORD_BYTES,
  SESSION_FORMAT_VERSION,
  type SessionHeaderRecord,
  type SessionRecord,
} from './session-records.js';
import { MAX_MODEL_NAME_LENGTH } from './session-title.js';

export interface SavedSession {
  /** The session's id: its file's name, which is what the user named it by and what list shows. */
  id: string;
  /** When it started: the header's time where it agrees with the file, else the first record's. */
  createdAt: string;
  /** The first line as written; its id and time may be another session's in a copied or edited file. */
  header: SessionHeaderRecord;
  /** The transcript as it stands after every record (compactions applied). */
  messages: Message[];
  /** The answered tool calls that compactions replaced with a summary: the transcript's calls are numbered after them. */
  compactedToolCalls: number;
  /** The model in use at the last record. */
  model: string;
  /** When the last record was written. */
  updatedAt: string;
  /** Lines that were skipped, and why. */
  warnings: string[];
}

/** The most of a session file read back: a string can hold no more (about 512 MiB), so a larger one never could be. */
const MAX_SESSION_FILE_BYTES = 500 * 1024 * 1024;

export class SessionFileError extends Error {
  override readonly name = 'SessionFileError';
}

export function readSessionFile(file: string): SavedSession {
  let text: string;
  try {
    // Only a regular file, opened without waiting: the name may have been swapped for a pipe since it was listed.
    text = readBoundedFile(file, MAX_SESSION_FILE_BYTES, { regularFileOnly: true });
  } catch (error) {
    throw new SessionFileError(
      `cannot read the session file ${file}: ${readFailureText(error, MAX_SESSION_FILE_BYTES)}`,
    );
  }
  const lines = text.split('\n');
  const torn = !text.endsWith('\n');
  if (!torn) lines.pop();
  const warnings: string[] = [];
  const header = parseHeader(lines[0], file);
  let messages: Message[] = [];
  let compactedToolCalls = 0;
  let model = header.model;
  let updatedAt = header.createdAt;
  let firstRecordAt: string | undefined;
  // Characters of the file before the line read: every call a compaction replaced was written before it, in more.
  let offset = (lines[0]?.length ?? 0) + 1;
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    const lineStart = offset;
    offset += line.length + 1;
    if (line === '') continue;
    const where = `${file} line ${index + 1}`;
    const record = parseRecord(line);
    if (record === undefined) {
      warnings.push(
        torn && index === lines.length - 1
          ? `${where}: ignored a torn last line (the host stopped while saving it)`
          : `${where}: ignored a line that is not a session record`,
      );
      continue;
    }
    switch (record.type) {
      case 'message':
        messages.push(record.message);
        model = modelWriting(record) ?? model;
        break;
      case 'model':
        model = record.model;
        break;
      case 'compaction': {
        const said = record.replacedToolCalls;
        // A count no file this long could hold would number the calls after it wrongly, past where numbers stay exact.
        const believable = isCount(said) && compactedToolCalls + said <= lineStart;
        if (said !== undefined && !believable) {
          warnings.push(
            `${where}: ignored its count of replaced tool calls, which is no count the lines before it could hold; counted them from the messages it replaced`,
          );
        }
        // A file of an earlier version does not say: the calls are counted where they were.
        compactedToolCalls += believable ? said : answeredToolCalls(messages.slice(0, record.keptFrom)).length;
        messages = [...record.messages, ...messages.slice(record.keptFrom)];
        break;
      }
      case 'session':
        warnings.push(`${where}: ignored a second session header`);
        continue;
    }
    firstRecordAt ??= record.at;
    updatedAt = record.at;
  }
  const id = basename(file, '.jsonl');
  if (header.id !== id)
    warnings.push(`${file}: its header names session ${stripControlCodes(header.id)}; shown as ${id}, its file name`);
  return {
    id,
    createdAt: startedAt(header, id, firstRecordAt),
    header,
    messages,
    compactedToolCalls,
    model,
    updatedAt,
    warnings,
  };
}

/** The model a record says is in use from it on: a switch's, or the one that wrote an assistant message. */
export function modelWriting(record: SessionRecord): string | undefined {
  if (record.type === 'model') return record.model;
  if (record.type !== 'message' || record.message.role !== 'assistant') return undefined;
  // Written by the host as `provider:model`; a longer one in a file someone else wrote is not taken for it.
  return typeof record.model === 'string' && record.model.length <= MAX_MODEL_NAME_LENGTH ? record.model : undefined;
}

/** The header's time, if it is this file's own header and not after the first record; else the first record's. */
export function startedAt(header: SessionHeaderRecord, id: string, firstRecordAt: string | undefined): string {
  if (firstRecordAt === undefined) return header.createdAt;
  const agrees = header.id === id && Date.parse(header.createdAt) <= Date.parse(firstRecordAt);
  return agrees ? header.createdAt : firstRecordAt;
}

export function parseHeader(line: string | undefined, file: string): SessionHeaderRecord {
  const record = line === undefined ? undefined : parseRecord(line);
  if (record?.type !== 'session') throw new SessionFileError(`${file} does not start with a session header`);
  if (record.version > SESSION_FORMAT_VERSION)
    throw new SessionFileError(`${file} was saved by a newer mcp-host (format ${record.version}); upgrade to read it`);
  return record;
}

export function parseRecord(line: string): SessionRecord | undefined {
  if (Buffer.byteLength(line) > MAX_SESSION_RECORD_BYTES) return undefined;
  let value: unknown;
  try {
    value = parseJsonWithinDepth(line, 'a session record');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const isText = (key: string) => typeof record[key] === 'string';
  switch (record.type) {
    case 'session':
      return isText('id') &&
        isText('model') &&
        isText('createdAt') &&
        isText('title') &&
        typeof record.version === 'number'
        ? (record as unknown as SessionRecord)
        : undefined;
    case 'message':
      return isText('at') && isMessage(record.message) ? (record as unknown as SessionRecord) : undefined;
    case 'model':
      return isText('at') && isText('model') ? (record as unknown as SessionRecord) : undefined;
    case 'compaction':
      return isText('at') &&
        Array.isArray(record.messages) &&
        (record.messages as unknown[]).every(isMessage) &&
        Number.isInteger(record.keptFrom) &&
        (record.keptFrom as number) >= 0
        ? (record as unknown as SessionRecord)
        : undefined;
    default:
      return undefined;
  }
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
