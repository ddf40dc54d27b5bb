/**
 * Reading a file the host did not write (a config, the env file or instructions it names, a skill), with a bound on
 * what is read. A size from `fstat` is not trusted: a device (`/dev/zero`) or a `/proc` file says 0 and never ends, so
 * the file is read in pieces and refused once past the bound. Each caller words the refusal for its own file.
 */

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { errorCodeOf } from './write-json-file.js';

type BoundedReadFailure =
  | { reason: 'missing' }
  | { reason: 'folder' }
  | { reason: 'not-a-file' }
  | { reason: 'too-large'; size: number | undefined }
  | { reason: 'unreadable'; code: string };

export class BoundedReadError extends Error {
  override readonly name = 'BoundedReadError';
  constructor(readonly failure: BoundedReadFailure) {
    super(failure.reason);
  }

  /** The failure as the end of "found …": `a folder`, `a file of 20000000 bytes`, `a read error (EACCES)`. */
  describe(maxBytes: number): string {
    const { failure } = this;
    switch (failure.reason) {
      case 'missing':
        return 'no such file';
      case 'folder':
        return 'a folder';
      case 'not-a-file':
        return 'a device, pipe or socket, not a file';
      case 'too-large':
        return failure.size === undefined ? `more than ${maxBytes} bytes` : `a file of ${failure.size} bytes`;
      case 'unreadable':
        return `a read error (${failure.code})`;
    }
  }
}

interface ReadBoundedOptions {
  /**
   * Refuse anything but a regular file, opened so that a named pipe cannot block the host: for paths a file names,
   * which no one chose on the command line. Without it a pipe is read as it comes (`--config <(…)`).
   */
  regularFileOnly?: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Opening for reading without waiting: a named pipe put where a file belongs would block the open until something
 * wrote to it. What was opened is then examined, and a reader refuses or passes over anything but a regular file.
 */
export const OPEN_WITHOUT_WAITING = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * `file` opened with `flags` (and `mode`, should they create it) and what it is; the descriptor is closed again should
 * examining it fail.
 */
export function openAndExamine(file: string, flags: number, mode?: number): { descriptor: number; stats: Stats } {
  const descriptor = openSync(file, flags, mode);
  try {
    return { descriptor, stats: fstatSync(descriptor) };
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

/** {@link openAndExamine} with a file handle, for readers that read as they go. */
export async function openHandleAndExamine(file: string, flags: number): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await open(file, flags);
  try {
    return { handle, stats: await handle.stat() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The file's text (UTF-8), or a {@link BoundedReadError} saying why not. */
export function readBoundedFile(file: string, maxBytes: number, options: ReadBoundedOptions = {}): string {
  return readBoundedBytes(file, maxBytes, options).toString('utf8');
}

/** The file's bytes, for a reader that checks them against a hash before decoding; else as {@link readBoundedFile}. */
export function readBoundedBytes(file: string, maxBytes: number, options: ReadBoundedOptions = {}): Buffer {
  let opened: { descriptor: number; stats: Stats };
  try {
    opened = openAndExamine(file, options.regularFileOnly ? OPEN_WITHOUT_WAITING : constants.O_RDONLY);
  } catch (error) {
    throw failureOf(error);
  }
  const { descriptor, stats } = opened;
  try {
    if (stats.isDirectory()) throw new BoundedReadError({ reason: 'folder' });
    if (options.regularFileOnly && !stats.isFile()) throw new BoundedReadError({ reason: 'not-a-file' });
    if (stats.isFile() && stats.size > maxBytes) throw new BoundedReadError({ reason: 'too-large', size: stats.size });
    const chunks: Buffer[] = [];
    let total = 0;
    // One piece more than the bound at most: enough to know the file is past it.
    const piece = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1));
    for (;;) {
      const count = readSync(descriptor, piece, 0, piece.length, null);
      if (count === 0) break;
      total += count;
      if (total > maxBytes) throw new BoundedReadError({ reason: 'too-large', size: undefined });
      chunks.push(Buffer.from(piece.subarray(0, count)));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw error instanceof BoundedReadError ? error : failureOf(error);
  } finally {
    closeSync(descriptor);
  }
}

function failureOf(error: unknown): BoundedReadError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BoundedReadError({ reason: 'missing' });
  if (code === 'EISDIR') return new BoundedReadError({ reason: 'folder' });
  return new BoundedReadError({ reason: 'unreadable', code: code ?? (error as Error).message });
}

/**
 * A file the host keeps in its state folder (the trust store, approved configs, pins, OAuth state): a regular file
 * only, within `maxBytes`, or undefined when there is none. Someone else may have put a pipe or a device in its place,
 * which would block the host or never end; a {@link BoundedReadError} says so.
 */
export function readStateFile(file: string, maxBytes: number): string | undefined {
  try {
    return readBoundedFile(file, maxBytes, { regularFileOnly: true });
  } catch (error) {
    if (error instanceof BoundedReadError && error.failure.reason === 'missing') return undefined;
    throw error;
  }
}

/**
 * Why reading a file failed, as the end of a sentence: `found a folder`, `found a device, pipe or socket, not a file`;
 * any other error by its code or message.
 */
export function readFailureText(error: unknown, maxBytes: number): string {
  if (error instanceof BoundedReadError) return `found ${error.describe(maxBytes)}`;
  return errorCodeOf(error);
}
