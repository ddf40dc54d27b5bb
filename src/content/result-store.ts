/**
 * Keeps the full text of tool results that the output budget cut, so that the model can read the rest
 * (through the `read_stored_result` host tool) and the audit can point at the whole output.
 *
 * One file per result in the host's state directory, readable by its owner only, named by a random id that
 * cannot be guessed from other ids. Files are UTF-16LE with a byte-order mark: offsets and lengths are in
 * JavaScript string units (what the budget notice reports), so a slice is read straight from its byte
 * position, without reading or decoding the text before it; editors recognise the byte-order mark.
 *
 * A store belongs to one host session: its folder is removed on `close`, and it holds at most `maxBytes`
 * (the oldest results go first), so cut results neither pile up nor outlive the session that made them.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { mkdir, open, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { OPEN_WITHOUT_WAITING, openHandleAndExamine } from '../json/read-bounded-file.js';
import { isHighSurrogate } from '../text/surrogate-pairs.js';

/**
 * The most characters one read returns: 100,000 characters are about 25,000 tokens, the default per-result
 * output budget, so a full-length read is shown to the model without being cut again.
 */
export const MAX_STORED_READ_LENGTH = 100_000;

/** Default size cap of one session's stored results, in bytes (about 128 million characters). */
export const DEFAULT_MAX_STORED_BYTES = 256 * 1024 * 1024;

const ID_PREFIX = 'res_';
const ID_RANDOM_BYTES = 18;
const ID_PATTERN = /^res_[A-Za-z0-9_-]{24}$/;
const BYTE_ORDER_MARK = 0xfeff;
const BYTES_PER_UNIT = 2;
const HEADER_BYTES = 2;

export type ResultStoreErrorCode = 'invalid-id' | 'unknown-id' | 'invalid-range' | 'offset-out-of-range' | 'not-stored';

/** A read that cannot be served; the message says what was wrong and what to send instead. */
export class ResultStoreError extends Error {
  override readonly name = 'ResultStoreError';
  constructor(
    message: string,
    readonly code: ResultStoreErrorCode,
  ) {
    super(message);
  }
}

export interface StoredResultSlice {
  id: string;
  /** The offset the slice starts at, in characters (UTF-16 code units). */
  offset: number;
  text: string;
  /** The length of the whole stored text, in characters. */
  totalLength: number;
  /** Where the next read should start: `offset + text.length`. */
  nextOffset: number;
  /** Whether characters remain after this slice. */
  hasMore: boolean;
}

export interface ResultStore {
  readonly directory: string;
  /** Stores a full text; resolves with its new id once the file is written. */
  save(text: string): Promise<string>;
  /**
   * Stores a full text and returns its new id at once; the file is written in the background. `read` waits
   * for it, `flush` waits for all, and a failed write is reported to `onWriteError` and by `read`.
   */
  startSave(text: string): string;
  /**
   * Starts a stored text that arrives in pieces (a tool result's text too long to hold in memory): each piece is
   * written in the background, in order, and let go. Reads of its id wait for `end`. Undefined once closed.
   */
  startStream(): StoredTextStream | undefined;
  /**
   * Reads `length` characters from `offset` (at most {@link MAX_STORED_READ_LENGTH}; longer requests are
   * shortened, and `nextOffset`/`hasMore` say where to go on). Throws {@link ResultStoreError} for an id that
   * is malformed or unknown, an offset past the end, or a text whose write failed.
   */
  read(id: string, offset: number, length: number): Promise<StoredResultSlice>;
  /**
   * The whole stored text, in pieces read from its file one at a time as they are asked for (never the whole text in
   * memory; no piece ends between the halves of a surrogate pair). Waits for the text to be complete; the first
   * piece throws {@link ResultStoreError} as `read` does.
   */
  readWhole(id: string): AsyncIterable<string>;
  /** Waits until every background write (and deletion of results over the cap) has finished. */
  flush(): Promise<void>;
  /** Waits for the writes, then deletes the store's folder and everything in it; later saves are not kept. */
  close(): Promise<void>;
  /** Bytes the store holds on disk now (written or being written). */
  readonly storedBytes: number;
  /** The path of a stored result's file, e.g. for an audit record. */
  pathOf(id: string): string;
}

/** A stored text written as it arrives; see {@link ResultStore.startStream}. */
interface StoredTextStream {
  readonly id: string;
  write(text: string): void;
  end(): void;
  /** Deletes what was written; reads of the id fail. */
  abort(): void;
}

export interface ResultStoreOptions {
  /** Told when a background write fails; the id's reads fail with code `not-stored` afterwards. */
  onWriteError?: (error: Error, id: string) => void;
  /**
   * The most bytes the folder may hold (default {@link DEFAULT_MAX_STORED_BYTES}; text takes two bytes a
   * character). Storing more deletes the oldest results first; a single text larger than this is not kept.
   */
  maxBytes?: number;
}

function checkId(id: string): void {
  if (!ID_PATTERN.test(id)) {
    throw new ResultStoreError(
      `${JSON.stringify(id)} is not a stored result id; use the id exactly as the tool result's notice gives it (it starts with "${ID_PREFIX}").`,
      'invalid-id',
    );
  }
}

function checkRange(offset: number, length: number): void {
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ResultStoreError(`offset must be a whole number of at least 0, got ${offset}.`, 'invalid-range');
  }
  if (!Number.isInteger(length) || length < 1) {
    throw new ResultStoreError(`length must be a whole number of at least 1, got ${length}.`, 'invalid-range');
  }
}

/** Characters encoded per write: the file is written a slice at a time, never the whole text as one buffer. */
const WRITE_SLICE_UNITS = 512 * 1024;

/**
 * Writes the file: a UTF-16LE byte-order mark, then the text as UTF-16LE. Slice by slice through one reused buffer,
 * so that storing a 100 MB text costs a megabyte of memory, not the 200 MB of its whole UTF-16 encoding.
 */
async function writeEncoded(path: string, text: string): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    await appendEncoded(file, text, true);
  } finally {
    await file.close();
  }
}

type FileHandle = Awaited<ReturnType<typeof open>>;

/** Appends `text` as UTF-16LE, slice by slice through one buffer; `header`: the byte-order mark first. */
async function appendEncoded(file: FileHandle, text: string, header: boolean): Promise<void> {
  const buffer = Buffer.allocUnsafe(HEADER_BYTES + Math.min(text.length, WRITE_SLICE_UNITS) * BYTES_PER_UNIT);
  let used = 0;
  if (header) used = buffer.writeUInt16LE(BYTE_ORDER_MARK, 0);
  for (let start = 0; start < text.length || used > 0; start += WRITE_SLICE_UNITS) {
    const slice = text.slice(start, start + WRITE_SLICE_UNITS);
    used += buffer.write(slice, used, 'utf16le');
    let written = 0;
    while (written < used) written += (await file.write(buffer, written, used - written)).bytesWritten;
    used = 0;
  }
}

/** Creates a store that keeps its files in `directory` (created, owner-only, when first needed). */
export function createResultStore(directory: string, options: ResultStoreOptions = {}): ResultStore {
  let directoryReady: Promise<unknown> | undefined;
  const writes = new Map<string, Promise<void>>();
  /** Streams not yet ended, by id: a read waits for its stream's end before waiting for its writes. */
  const streaming = new Map<string, Promise<void>>();
  const openStreams = new Set<StoredTextStream>();
  const failures = new Map<string, Error>();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_STORED_BYTES;
  // What is on disk, oldest first, to delete from the front when over the cap.
  const kept = new Map<string, number>();
  const evicted = new Set<string>();
  const deletions = new Set<Promise<void>>();
  let storedBytes = 0;
  let closed = false;
  const pathOf = (id: string): string => {
    checkId(id);
    return join(directory, `${id}.txt`);
  };

  async function write(id: string, text: string): Promise<void> {
    directoryReady ??= mkdir(directory, { recursive: true, mode: 0o700 });
    await directoryReady;
    // 'wx': never overwrite an existing file, even on an (astronomically unlikely) id collision.
    await writeEncoded(pathOf(id), text);
  }

  function refuse(id: string, error: Error): string {
    failures.set(id, error);
    options.onWriteError?.(error, id);
    return id;
  }

  /** Deletes the oldest results (but `except`) until `bytes` more fit under the cap. */
  function makeRoom(bytes: number, except?: string): void {
    for (const [oldest, size] of kept) {
      if (storedBytes + bytes <= maxBytes) return;
      if (oldest === except) continue;
      kept.delete(oldest);
      evicted.add(oldest);
      storedBytes -= size;
      const file = join(directory, `${oldest}.txt`);
      const deleted = (writes.get(oldest) ?? Promise.resolve())
        .then(() => unlink(file))
        .catch(() => undefined)
        .finally(() => deletions.delete(deleted));
      deletions.add(deleted);
    }
  }

  function startSave(text: string): string {
    const id = ID_PREFIX + randomBytes(ID_RANDOM_BYTES).toString('base64url');
    if (closed) return refuse(id, new Error('the result store is closed'));
    const bytes = HEADER_BYTES + text.length * BYTES_PER_UNIT;
    if (bytes > maxBytes) {
      return refuse(id, new Error(`the text (${bytes} bytes) is larger than the store's cap of ${maxBytes} bytes`));
    }
    makeRoom(bytes);
    kept.set(id, bytes);
    storedBytes += bytes;
    const written = write(id, text).then(
      () => {
        writes.delete(id);
      },
      (reason: unknown) => {
        writes.delete(id);
        if (kept.delete(id)) storedBytes -= bytes;
        const error = reason instanceof Error ? reason : new Error(String(reason));
        failures.set(id, error);
        options.onWriteError?.(error, id);
      },
    );
    writes.set(id, written);
    return id;
  }

  function startStream(): StoredTextStream | undefined {
    if (closed) return undefined;
    const id = ID_PREFIX + randomBytes(ID_RANDOM_BYTES).toString('base64url');
    let bytes = HEADER_BYTES;
    let failure: Error | undefined;
    let ended = false;
    makeRoom(bytes);
    kept.set(id, bytes);
    storedBytes += bytes;
    directoryReady ??= mkdir(directory, { recursive: true, mode: 0o700 });
    const opened = directoryReady.then(() => open(pathOf(id), 'wx', 0o600));
    let chain: Promise<unknown> = opened.then((file) => appendEncoded(file, '', true));
    // A failure is taken up when the stream ends; until then it must not count as unhandled.
    chain.catch(() => undefined);
    const fail = (error: Error): void => {
      if (failure !== undefined) return;
      failure = error;
      if (kept.delete(id)) storedBytes -= bytes;
      failures.set(id, error);
    };
    // Until it ends, reads of it wait (flush and close do not: a stream left open is aborted by close).
    let release: () => void = () => undefined;
    streaming.set(
      id,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const finish = (remove: boolean): void => {
      ended = true;
      openStreams.delete(stream);
      const done = chain
        .catch((reason: unknown) => fail(reason instanceof Error ? reason : new Error(String(reason))))
        .then(() => opened.then((file) => file.close()))
        .catch(() => undefined)
        .then(() => (remove || failure !== undefined ? unlink(pathOf(id)).catch(() => undefined) : undefined))
        .finally(() => {
          writes.delete(id);
          if (failure !== undefined && !remove) options.onWriteError?.(failure, id);
        });
      writes.set(id, done);
      streaming.delete(id);
      release();
    };
    const stream: StoredTextStream = {
      id,
      write(text: string): void {
        if (ended || failure !== undefined || text.length === 0) return;
        const more = text.length * BYTES_PER_UNIT;
        if (bytes + more > maxBytes) {
          fail(new Error(`the text (over ${bytes + more} bytes) is larger than the store's cap of ${maxBytes} bytes`));
          return;
        }
        makeRoom(more, id);
        bytes += more;
        kept.set(id, bytes);
        storedBytes += more;
        chain = chain.then(() =>
          failure === undefined ? opened.then((file) => appendEncoded(file, text, false)) : undefined,
        );
        chain.catch(() => undefined);
      },
      end(): void {
        if (!ended) finish(false);
      },
      abort(): void {
        if (ended) return;
        fail(new Error('the text was not complete'));
        finish(true);
      },
    };
    openStreams.add(stream);
    return stream;
  }

  async function save(text: string): Promise<string> {
    const id = startSave(text);
    await writes.get(id);
    const failure = failures.get(id);
    if (failure !== undefined) throw failure;
    return id;
  }

  async function read(id: string, offset: number, length: number): Promise<StoredResultSlice> {
    checkRange(offset, length);
    const file = await openStored(id);
    try {
      return await readSlice(file, id, offset, length);
    } finally {
      await file.close();
    }
  }

  async function* readWhole(id: string): AsyncIterable<string> {
    const file = await openStored(id);
    try {
      yield* readPieces(file);
    } finally {
      await file.close();
    }
  }

  /** The stored text's file, once complete; a {@link ResultStoreError} when it cannot be read. */
  async function openStored(id: string): Promise<FileHandle> {
    const path = pathOf(id);
    await streaming.get(id);
    await writes.get(id);
    const failure = failures.get(id);
    if (failure !== undefined) {
      throw new ResultStoreError(
        `The full text of result ${id} could not be stored (${failure.message}); only the part shown in the tool result is available.`,
        'not-stored',
      );
    }
    if (evicted.has(id)) {
      throw new ResultStoreError(
        `Stored result ${id} is no longer kept: this session keeps at most ${maxBytes} bytes of cut results and newer ones replaced it.`,
        'not-stored',
      );
    }
    let opened: { handle: FileHandle; stats: Stats };
    try {
      // The folder may hold what the host did not write (a resumed session's, or one someone else changed): a link
      // is not followed out of it, and a pipe is not waited on.
      opened = await openHandleAndExamine(path, OPEN_WITHOUT_WAITING | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new ResultStoreError(
          `No stored result has the id ${JSON.stringify(id)}; use an id from a tool result's notice in this session.`,
          'unknown-id',
        );
      }
      if (code === 'ELOOP') throw notStoredFile(id, 'a symbolic link');
      throw error;
    }
    if (!opened.stats.isFile()) {
      await opened.handle.close();
      throw notStoredFile(id, 'a folder, device or pipe');
    }
    return opened.handle;
  }

  function notStoredFile(id: string, what: string): ResultStoreError {
    return new ResultStoreError(
      `Stored result ${id} is ${what} in ${directory}, not a file the host wrote; it is not read.`,
      'not-stored',
    );
  }

  async function flush(): Promise<void> {
    await Promise.all([...writes.values(), ...deletions]);
  }

  async function close(): Promise<void> {
    closed = true;
    for (const stream of [...openStreams]) stream.abort();
    await flush();
    await rm(directory, { recursive: true, force: true });
    kept.clear();
    storedBytes = 0;
  }

  return {
    directory,
    save,
    startSave,
    startStream,
    read,
    readWhole,
    flush,
    close,
    pathOf,
    get storedBytes() {
      return storedBytes;
    },
  };
}

/** Characters per piece of {@link ResultStore.readWhole}: a megabyte read at a time. */
const WHOLE_PIECE_UNITS = 512 * 1024;

/** The text after the byte-order mark, a piece at a time; a high surrogate at a piece's end waits for the next. */
async function* readPieces(file: FileHandle): AsyncIterable<string> {
  const buffer = Buffer.allocUnsafe(WHOLE_PIECE_UNITS * BYTES_PER_UNIT);
  let position = HEADER_BYTES;
  let held = '';
  for (;;) {
    const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
    // An odd byte at the very end (a file cut short) is no character: it is left out, as `read` leaves it.
    const units = Math.floor(bytesRead / BYTES_PER_UNIT);
    if (units === 0) break;
    position += units * BYTES_PER_UNIT;
    let text = held + buffer.toString('utf16le', 0, units * BYTES_PER_UNIT);
    held = '';
    if (isHighSurrogate(text.charCodeAt(text.length - 1))) {
      held = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text !== '') yield text;
  }
  if (held !== '') yield held;
}

async function readSlice(file: FileHandle, id: string, offset: number, length: number): Promise<StoredResultSlice> {
  const { size } = await file.stat();
  const totalLength = Math.max(0, Math.floor((size - HEADER_BYTES) / BYTES_PER_UNIT));
  if (offset > totalLength || (offset === totalLength && totalLength > 0)) {
    throw new ResultStoreError(
      `offset ${offset} is past the end of stored result ${id}, which has ${totalLength} characters; use an offset from 0 to ${Math.max(0, totalLength - 1)}.`,
      'offset-out-of-range',
    );
  }
  let count = Math.min(length, MAX_STORED_READ_LENGTH, totalLength - offset);
  const buffer = Buffer.alloc(count * BYTES_PER_UNIT);
  await file.read(buffer, 0, buffer.length, HEADER_BYTES + offset * BYTES_PER_UNIT);
  let text = buffer.toString('utf16le');
  // Do not end a slice between the two halves of a surrogate pair; the next read starts with the pair.
  if (count > 1 && offset + count < totalLength && isHighSurrogate(text.charCodeAt(count - 1))) {
    count--;
    text = text.slice(0, count);
  }
  const nextOffset = offset + count;
  return { id, offset, text, totalLength, nextOffset, hasMore: nextOffset < totalLength };
}
