/**
 * One process at a time writes a session. Two chats appending to one file would interleave their messages (one
 * chat's tool calls followed by the other's user text), and the session read back would be a transcript no provider
 * accepts. A session in use is marked by `<id>.lock` naming the process that holds it (its pid, and on Linux its
 * start time and boot, see process-identity.ts); another process is refused while that process runs, and takes over
 * a lock left by one that has ended, even when its pid now belongs to another process. Conversations of the same
 * process share it (they are one host, and write in turn). Locks are removed when the session is let go and when the
 * process exits.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  differs,
  formatIdentity,
  isAlive,
  type ProcessIdentity,
  parseIdentity,
  processIdentity,
} from './process-identity.js';

/** The session is being written by another running process. */
export class SessionInUseError extends Error {
  override readonly name = 'SessionInUseError';
}

/** Lock files this process holds, and how many of its conversations hold each. */
const held = new Map<string, number>();
let releaseOnExit = false;
let ownIdentity: ProcessIdentity | undefined;

function self(): ProcessIdentity {
  ownIdentity ??= processIdentity(process.pid);
  return ownIdentity;
}

export function sessionLockFile(directory: string, id: string): string {
  return join(directory, `${id}.lock`);
}

/** Takes the session for this process; throws `SessionInUseError` naming the other process and the lock file. */
export function holdSession(directory: string, id: string): void {
  const file = sessionLockFile(directory, id);
  const holders = held.get(file);
  if (holders !== undefined) {
    held.set(file, holders + 1);
    return;
  }
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${formatIdentity(self())}\n`, { flag: 'wx', mode: 0o600 });
      held.set(file, 1);
      if (!releaseOnExit) {
        releaseOnExit = true;
        process.once('exit', () => {
          for (const lock of held.keys()) rmSync(lock, { force: true });
        });
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(file);
    if (holder !== undefined && !differs(holder, self())) {
      held.set(file, 1);
      return;
    }
    if (holder !== undefined && holder.pid !== process.pid && isAlive(holder)) {
      throw new SessionInUseError(
        `session ${id} is open in another mcp-host (pid ${holder.pid}); leave that chat first, or start a new conversation (if no such process is yours, delete ${file})`,
      );
    }
    // Left by a process that has ended (its pid free, or another process's now): taken over.
    rmSync(file, { force: true });
  }
  throw new SessionInUseError(`session ${id} was taken by another mcp-host while this one opened it (${file})`);
}

/** Lets the session go; the lock is removed once no conversation of this process holds it. */
export function releaseSession(directory: string, id: string): void {
  const file = sessionLockFile(directory, id);
  const holders = held.get(file);
  if (holders === undefined) return;
  if (holders > 1) {
    held.set(file, holders - 1);
    return;
  }
  held.delete(file);
  const holder = holderOf(file);
  if (holder !== undefined && !differs(holder, self())) rmSync(file, { force: true });
}

function holderOf(file: string): ProcessIdentity | undefined {
  try {
    return parseIdentity(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
