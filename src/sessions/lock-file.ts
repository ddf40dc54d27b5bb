/**
 * A lock file that appears whole or not at all. Written in place (open with O_EXCL, then write), a lock is for a
 * moment empty, and a process reading it then would judge an empty lock as one left by nobody and take it over while
 * its writer goes on to hold it. So the text is written to a file of this process's own first and hard-linked to the
 * lock's name, which fails when that name exists: the lock's name never shows anything but its full text.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { OPEN_WITHOUT_WAITING, openAndExamine } from '../json/read-bounded-file.js';

/** A lock's name is taken by something that is no lock and cannot be taken over. */
export class LockFileError extends Error {
  override readonly name = 'LockFileError';
}

/** Writes `text` as `file` unless `file` exists; false when it does. */
export function createLockFile(file: string, text: string): boolean {
  const draft = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.draft`;
  writeFileSync(draft, text, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (!hardLinksUnsupported(code)) throw error;
    return createInPlace(file, text);
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * A lock is one short line. Anything in a (possibly shared) sessions folder may be put under a lock's name, so no more
 * than this is read of it: a longer file is no lock this program wrote, and reads as an empty, damaged one.
 */
const MAX_LOCK_BYTES = 4096;

/** The text of `file`; '' when it is longer than any lock; undefined when there is none. */
export function readLockFile(file: string): string | undefined {
  let opened: ReturnType<typeof openAndExamine>;
  try {
    opened = openAndExamine(file, OPEN_WITHOUT_WAITING);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const { descriptor, stats } = opened;
  try {
    // A folder cannot be taken over (removing it could remove what someone keeps in it): said, to be removed by hand.
    if (stats.isDirectory()) throw new LockFileError(`${file} is a folder where a lock file belongs: remove it`);
    // A pipe or device is no lock this program wrote: read as a damaged one, which is taken over.
    if (!stats.isFile()) return '';
    // One byte more than a lock may have tells a longer file from one of just that size.
    const buffer = Buffer.alloc(MAX_LOCK_BYTES + 1);
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    return read > MAX_LOCK_BYTES ? '' : buffer.toString('utf8', 0, read);
  } finally {
    closeSync(descriptor);
  }
}

/** File systems without hard links (FAT, some network shares) get the lock written in place, with its empty moment. */
function createInPlace(file: string, text: string): boolean {
  try {
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function hardLinksUnsupported(code: string | undefined): boolean {
  return code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS';
}
