/**
 * The host keeps approvals and the audit log in files only the user can change. A state folder, trust store or
 * audit file that another user could write, that someone else owns, or that is a symbolic link to elsewhere is
 * refused before it is used, with an error that names the path and the fix. (This guards against other users
 * and links planted in advance; a program running as the user can change these files anyway.)
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { quoteShellWord } from './quote-shell-word.js';

type PrivatePathKind = 'folder' | 'file';

/** The state folder, trust store or audit file is not private to the user. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

/**
 * Throws `UnsafePathError` when `path` exists and is a symbolic link, is not owned by the current user, or is
 * writable by group or others. A path that does not exist passes (the host creates it owner-only). `what` names
 * it in the error, e.g. "state folder".
 */
export function assertPrivatePath(path: string, kind: PrivatePathKind, what: string): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    // ENOTDIR: a file stands where a folder above it would be, so it is not there either.
    if (isNotThere(error)) return;
    throw error;
  }
  const mode = kind === 'folder' ? '700' : '600';
  if (stats.isSymbolicLink()) {
    throw new UnsafePathError(
      `the ${what} ${path} is a symbolic link (to ${targetOf(path)}); the host uses only a real ${kind} there. Replace the link with a ${kind} of your own (mode ${mode}), or choose another place.`,
    );
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new UnsafePathError(
      `the ${what} ${path} is owned by user id ${stats.uid}, not by you (user id ${uid}), so its owner could change it. Use a ${kind} of your own (mode ${mode}), or choose another place.`,
    );
  }
  if (process.platform !== 'win32' && (stats.mode & 0o022) !== 0) {
    const who = (stats.mode & 0o002) !== 0 ? 'everyone' : 'its group';
    throw new UnsafePathError(
      `the ${what} ${path} is writable by ${who} (mode ${(stats.mode & 0o777).toString(8)}), so others could change it. Make it private: chmod ${mode} ${quoteShellWord(path)}`,
    );
  }
}

function targetOf(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return 'somewhere else';
  }
}

/** Whether a file system call failed because the path is not there: nothing at it, or a file in place of a folder above it. */
export function isNotThere(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
