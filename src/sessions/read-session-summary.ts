/**
 * What a listing needs of a session file, read from its two ends instead of replaying every record: the header and
 * first record from its start, the last record and the last naming the model in use from its end. The id, times and
 * model are taken as `sessions show` takes them (see read-session-file.ts): the id is the file's name, the start the
 * header's time only where the header is the file's own and not after the first record, and the last update the last
 * record's time, so a copied or touched file does not list as new. Lines that are not records are passed over as a
 * full read passes over them.
 */

import { closeSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { OPEN_WITHOUT_WAITING, openAndExamine } from '../json/read-bounded-file.js';
import { modelWriting, parseHeader, parseRecord, SessionFileError, startedAt } from './read-session-file.js';
import { MAX_SESSION_RECORD_BYTES, type SessionHeaderRecord } from './session-records.js';

export interface SessionFileSummary {
  /** The file's name. */
  id: string;
  header: SessionHeaderRecord;
  /** `provider:model` in use at the file's end (see `modelInUse`). */
  model: string;
  createdAt: string;
  updatedAt: string;
}

const CHUNK_BYTES = 64 * 1024;
/** How far from its end a file is searched for the model in use: the last turn's results fit, whole files need not. */
const MAX_MODEL_SEARCH_BYTES = 2 * MAX_SESSION_RECORD_BYTES;
const NEWLINE = 0x0a;

export function readSessionSummary(file: string): SessionFileSummary {
  // Read only if a regular file: a named pipe in the folder hung the listing (and `chat --continue`).
  const { descriptor, stats } = openAndExamine(file, OPEN_WITHOUT_WAITING);
  try {
    if (!stats.isFile()) throw new SessionFileError(`${file} is a device, pipe or socket, not a session file`);
    const size = stats.size;
    const forward = linesForward(descriptor, size);
    const first = forward.next();
    const header = parseHeader(first.done ? undefined : first.value.text, file);
    const id = basename(file, '.jsonl');
    const firstRecordAt = firstTime(forward);
    // No record after the header from the start means none from the end either.
    const last =
      firstRecordAt === undefined || first.done ? {} : fromTheEnd(linesBackward(descriptor, first.value.end, size));
    return {
      id,
      header,
      model: last.model ?? header.model,
      createdAt: startedAt(header, id, firstRecordAt),
      updatedAt: last.at ?? header.createdAt,
    };
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Read from the file's end: the time of the last record a full read would take (a second header is passed over too),
 * and the model the last switch or the last assistant message names. A file of an earlier version names the model on
 * switches only, so past `MAX_MODEL_SEARCH_BYTES` the header's model is taken (as all did before).
 */
function fromTheEnd(lines: Iterator<{ text: string }>): { at?: string; model?: string } {
  let at: string | undefined;
  let read = 0;
  for (let next = lines.next(); !next.done; next = lines.next()) {
    read += next.value.text.length;
    // Once the last record's time is known, only a record with a `model` member can change the answer: the others
    // (most of all, large tool results) are not parsed.
    if (at !== undefined && !next.value.text.includes('"model"')) {
      if (read > MAX_MODEL_SEARCH_BYTES) break;
      continue;
    }
    const record = next.value.text === '' ? undefined : parseRecord(next.value.text);
    if (record !== undefined && record.type !== 'session') at ??= record.at;
    const model = record === undefined ? undefined : modelWriting(record);
    // A record naming the model is itself a record a full read takes, so `at` is known by then.
    if (model !== undefined) return { at, model };
    if (at !== undefined && read > MAX_MODEL_SEARCH_BYTES) break;
  }
  return at === undefined ? {} : { at };
}

/** The time of the first record among `lines` that a full read would take (a second header is passed over too). */
function firstTime(lines: Iterator<{ text: string }>): string | undefined {
  for (let next = lines.next(); !next.done; next = lines.next()) {
    if (next.value.text === '') continue;
    const record = parseRecord(next.value.text);
    if (record !== undefined && record.type !== 'session') return record.at;
  }
  return undefined;
}

/** The file's lines from its start, each with the offset just past its newline; a last line without one too. */
function* linesForward(descriptor: number, size: number): Generator<{ text: string; end: number }> {
  // The pieces of the line being read, joined once its newline turns up: a long line is not copied chunk by chunk.
  let pieces: Buffer[] = [];
  let lineStart = 0;
  for (let position = 0; position < size; ) {
    const chunk = readAt(descriptor, position, Math.min(CHUNK_BYTES, size - position));
    if (chunk.length === 0) break;
    let from = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, from)) {
      pieces.push(chunk.subarray(from, newline));
      const text = Buffer.concat(pieces).toString('utf8');
      lineStart = position + newline + 1;
      pieces = [];
      from = newline + 1;
      yield { text, end: lineStart };
    }
    pieces.push(chunk.subarray(from));
    position += chunk.length;
  }
  const rest = Buffer.concat(pieces);
  if (rest.length > 0) yield { text: rest.toString('utf8'), end: lineStart + rest.length };
}

/** The file's lines after offset `stop`, last first; a last line without a newline is one too. */
function* linesBackward(descriptor: number, stop: number, size: number): Generator<{ text: string }> {
  // The pieces of the line being read, in file order.
  let pieces: Buffer[] = [];
  for (let position = size; position > stop; ) {
    const length = Math.min(CHUNK_BYTES, position - stop);
    position -= length;
    const chunk = readAt(descriptor, position, length);
    let end = chunk.length;
    for (let newline = chunk.lastIndexOf(NEWLINE, end - 1); newline !== -1; ) {
      pieces.unshift(chunk.subarray(newline + 1, end));
      const text = Buffer.concat(pieces).toString('utf8');
      pieces = [];
      end = newline;
      newline = end === 0 ? -1 : chunk.lastIndexOf(NEWLINE, end - 1);
      yield { text };
    }
    pieces.unshift(chunk.subarray(0, end));
  }
  const rest = Buffer.concat(pieces);
  if (rest.length > 0) yield { text: rest.toString('utf8') };
}

function readAt(descriptor: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = readSync(descriptor, buffer, 0, length, position);
  return buffer.subarray(0, read);
}
