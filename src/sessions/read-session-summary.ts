/**
 * What a listing needs of a session file, read from its two ends instead of replaying every record: the header and
 * first record from its start, the last record and the last naming the model in use from its end. The id, times and
 * model are taken as `sessions show` takes them (see read-session-file.ts): the id is the file's name, the start the
 * header's time only where the header is the file's own and not after the first record, and the last update the last
 * record's time, so a copied or touched file does not list as new. Lines that are not records are passed over as a
 * full read passes over them.
 *
 * The reading is written once as a generator that asks for the bytes it needs, so a reader that must not hold the
 * event loop (the web UI's listing) reads them asynchronously, and the terminal's commands synchronously.
 */

import { closeSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { OPEN_WITHOUT_WAITING, openAndExamine, openHandleAndExamine } from '../json/read-bounded-file.js';
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
const NO_BYTES = Buffer.alloc(0);

/** Bytes the reading needs: `length` of them at `position`, answered with those read (fewer at the file's end). */
interface ByteRange {
  position: number;
  length: number;
}

/** A step of the reading: it yields the ranges it needs, is given their bytes, and returns `T`. */
type Reading<T> = Generator<ByteRange, T, Buffer>;

export function readSessionSummary(file: string): SessionFileSummary {
  // Read only if a regular file: a named pipe in the folder hung the listing (and `chat --continue`).
  const { descriptor, stats } = openAndExamine(file, OPEN_WITHOUT_WAITING);
  try {
    const reading = summarize(file, stats);
    const last = new LastChunk();
    for (let step = reading.next(); ; ) {
      if (step.done) return step.value;
      const range = step.value;
      step = reading.next(last.holding(range) ?? last.keep(range, readAt(descriptor, range)));
    }
  } finally {
    closeSync(descriptor);
  }
}

/** {@link readSessionSummary} without holding the event loop while the file is read. */
export async function readSessionSummaryAsync(file: string): Promise<SessionFileSummary> {
  const { handle, stats } = await openHandleAndExamine(file, OPEN_WITHOUT_WAITING);
  try {
    const reading = summarize(file, stats);
    const last = new LastChunk();
    for (let step = reading.next(); ; ) {
      if (step.done) return step.value;
      const range = step.value;
      step = reading.next(last.holding(range) ?? last.keep(range, await readAtAsync(handle, range)));
    }
  } finally {
    await handle.close();
  }
}

function* summarize(file: string, stats: Stats): Reading<SessionFileSummary> {
  if (!stats.isFile()) throw new SessionFileError(`${file} is a device, pipe or socket, not a session file`);
  const size = stats.size;
  const forward = new LinesForward(size);
  const first = yield* forward.next();
  const header = parseHeader(first?.text, file);
  const id = basename(file, '.jsonl');
  const firstRecordAt = yield* firstTime(forward);
  // No record after the header from the start means none from the end either.
  const last =
    firstRecordAt === undefined || first === undefined ? {} : yield* fromTheEnd(new LinesBackward(first.end, size));
  return {
    id,
    header,
    model: last.model ?? header.model,
    createdAt: startedAt(header, id, firstRecordAt),
    updatedAt: last.at ?? header.createdAt,
  };
}

/**
 * Read from the file's end: the time of the last record a full read would take (a second header is passed over too),
 * and the model the last switch or the last assistant message names. A file of an earlier version names the model on
 * switches only, so past `MAX_MODEL_SEARCH_BYTES` the header's model is taken (as all did before).
 */
function* fromTheEnd(lines: LinesBackward): Reading<{ at?: string; model?: string }> {
  let at: string | undefined;
  let read = 0;
  for (let line = yield* lines.next(); line !== undefined; line = yield* lines.next()) {
    read += line.length;
    // Once the last record's time is known, only a record with a `model` member can change the answer: the others
    // (most of all, large tool results) are not parsed.
    if (at !== undefined && !line.includes('"model"')) {
      if (read > MAX_MODEL_SEARCH_BYTES) break;
      continue;
    }
    const record = line === '' ? undefined : parseRecord(line);
    if (record !== undefined && record.type !== 'session') at ??= record.at;
    const model = record === undefined ? undefined : modelWriting(record);
    // A record naming the model is itself a record a full read takes, so `at` is known by then.
    if (model !== undefined) return { at, model };
    if (at !== undefined && read > MAX_MODEL_SEARCH_BYTES) break;
  }
  return at === undefined ? {} : { at };
}

/** The time of the first record among `lines` that a full read would take (a second header is passed over too). */
function* firstTime(lines: LinesForward): Reading<string | undefined> {
  for (let line = yield* lines.next(); line !== undefined; line = yield* lines.next()) {
    if (line.text === '') continue;
    const record = parseRecord(line.text);
    if (record !== undefined && record.type !== 'session') return record.at;
  }
  return undefined;
}

/** The file's lines from its start, each with the offset just past its newline; a last line without one too. */
class LinesForward {
  // The pieces of the line being read, joined once its newline turns up: a long line is not copied chunk by chunk.
  private pieces: Buffer[] = [];
  private chunk: Buffer = NO_BYTES;
  private chunkAt = 0;
  private from = 0;
  private position = 0;
  private ended = false;

  constructor(private readonly size: number) {}

  /** The next line, or undefined after the last. */
  *next(): Reading<{ text: string; end: number } | undefined> {
    for (;;) {
      const newline = this.chunk.indexOf(NEWLINE, this.from);
      if (newline !== -1) {
        this.pieces.push(this.chunk.subarray(this.from, newline));
        const text = Buffer.concat(this.pieces).toString('utf8');
        this.pieces = [];
        this.from = newline + 1;
        return { text, end: this.chunkAt + newline + 1 };
      }
      if (this.from < this.chunk.length) this.pieces.push(this.chunk.subarray(this.from));
      this.from = this.chunk.length;
      if (this.ended || this.position >= this.size) {
        this.ended = true;
        const rest = Buffer.concat(this.pieces);
        this.pieces = [];
        return rest.length > 0 ? { text: rest.toString('utf8'), end: this.position } : undefined;
      }
      const chunk = yield { position: this.position, length: Math.min(CHUNK_BYTES, this.size - this.position) };
      if (chunk.length === 0) {
        this.ended = true;
        continue;
      }
      this.chunk = chunk;
      this.chunkAt = this.position;
      this.from = 0;
      this.position += chunk.length;
    }
  }
}

/** The file's lines after offset `stop`, last first; a last line without a newline is one too. */
class LinesBackward {
  // The pieces of the line being read, in file order.
  private pieces: Buffer[] = [];
  private chunk: Buffer = NO_BYTES;
  /** Where the unread part of the chunk ends. */
  private end = 0;
  private position: number;

  constructor(
    private readonly stop: number,
    size: number,
  ) {
    this.position = size;
  }

  /** The next line, or undefined after the first. */
  *next(): Reading<string | undefined> {
    for (;;) {
      const newline = this.end === 0 ? -1 : this.chunk.lastIndexOf(NEWLINE, this.end - 1);
      if (newline !== -1) {
        this.pieces.unshift(this.chunk.subarray(newline + 1, this.end));
        const text = Buffer.concat(this.pieces).toString('utf8');
        this.pieces = [];
        this.end = newline;
        return text;
      }
      if (this.end > 0) this.pieces.unshift(this.chunk.subarray(0, this.end));
      this.end = 0;
      if (this.position <= this.stop) {
        const rest = Buffer.concat(this.pieces);
        this.pieces = [];
        return rest.length > 0 ? rest.toString('utf8') : undefined;
      }
      const length = Math.min(CHUNK_BYTES, this.position - this.stop);
      this.position -= length;
      this.chunk = yield { position: this.position, length };
      this.end = this.chunk.length;
    }
  }
}

/** The last chunk read, which answers a range it holds: a small file's end is not read again once its start was. */
class LastChunk {
  private position = 0;
  private bytes: Buffer = NO_BYTES;

  holding({ position, length }: ByteRange): Buffer | undefined {
    const from = position - this.position;
    return from >= 0 && from + length <= this.bytes.length ? this.bytes.subarray(from, from + length) : undefined;
  }

  keep({ position }: ByteRange, bytes: Buffer): Buffer {
    this.position = position;
    this.bytes = bytes;
    return bytes;
  }
}

function readAt(descriptor: number, { position, length }: ByteRange): Buffer {
  const buffer = Buffer.alloc(length);
  const read = readSync(descriptor, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

async function readAtAsync(handle: FileHandle, { position, length }: ByteRange): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
