/**
 * One process at a time writes a session. Two chats appending to one file would interleave their messages (one
 * chat's tool calls followed by the other's user text), and the session read back would be a transcript no provider
 * accepts. A session in use is marked by `<id>.lock` naming the process that holds it (its pid, and on Linux its
 * start time and boot, see process-identity.ts); another process is refused while that process runs, and takes over
 * a lock left by one that has ended, even when its pid now belongs to another process. A lock written on another host
 * (a sessions folder on a shared or synced file system) is never judged stale: whether its process runs cannot be
 * seen from here, so it is refused until that chat lets it go or the user deletes it. Conversations of the same
 * process share it (they are one host, and write in turn). Locks are removed when the session is let go and when the
 * process exits.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createLockFile, readLockFile } from './lock-file.js';
import { isLeftover, removeLockLeftovers } from './lock-leftovers.js';
import {
  differs,
  formatIdentity,
  mayStillRun,
  onOtherHost,
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

/**
 * Takes the session for this process; throws `SessionInUseError` naming the other process and the lock file, and
 * what to do meanwhile for `purpose`: a conversation can start anew, a deletion can only wait.
 */
export function holdSession(directory: string, id: string, purpose: 'converse' | 'delete' = 'converse'): void {
  const file = sessionLockFile(directory, id);
  const holders = held.get(file);
  if (holders !== undefined) {
    held.set(file, holders + 1);
    return;
  }
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // Three tries: the lock can be let go between creating and reading it, and the lock lost to can itself be stale.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const outcome = tryToHold(file);
    if (outcome === 'held') {
      markHeld(file);
      removeLockLeftovers(file);
      return;
    }
    if (outcome !== 'lost') throw inUse(id, file, outcome, purpose);
  }
  throw new SessionInUseError(`session ${id} was taken by another mcp-host while this one opened it (${file})`);
}

/** One try: 'held', 'lost' (the lock changed meanwhile: try again), or the live process that has it. */
function tryToHold(file: string): 'held' | 'lost' | ProcessIdentity {
  if (createLockFile(file, ownLine())) return 'held';
  const seen = readLockFile(file);
  if (seen === undefined) return 'lost';
  const holder = parseIdentity(seen);
  if (holder !== undefined && !differs(holder, self())) return 'held';
  if (holder !== undefined && mayStillRun(holder)) return holder;
  // Left by a process of this host that has ended (its pid free, or another process's now, or no identity at all).
  return takeOver(file, seen, 0);
}

/**
 * Replaces the lock `file`, judged stale when it read `judged`, by one naming this process. Deleting what was judged
 * and then creating is not enough: A and B both read the stale lock, A deletes it and creates its own, and B, going
 * on from the same judgement, deletes A's fresh lock and creates its own; both then write the session. Renaming the
 * stale lock aside first does not close it either: B's rename can catch A's fresh lock, and while B puts it back the
 * name is free for C. So a takeover first creates a claim, `<lock>.<digest of the text judged>.takeover`, which only
 * one process can create (link: see lock-file.ts); everyone judging the same stale text names the same claim.
 * Holding it, the taker reads the lock again: still the judged text, it cannot change under the taker any more (its
 * writer has ended, and anyone else deleting it would need this claim), so deleting it and creating the new lock is
 * safe; another text means someone took over first, and the taker judges again.
 * - A and B judge the stale lock at once: A creates the claim, B's claim fails while A lives: B is refused, naming A.
 * - B judges late, after A has taken over and let the claim go: B's claim succeeds, but the lock now reads A's
 *   identity, not the stale text: B lets the claim go and judges again (A runs: refused).
 * - C finds no lock at all between A's delete and A's create: C creates it; A's create fails, and A judges C's lock.
 * - A dies holding the claim: the claim is itself a stale lock, taken over the same way (one level down), then used;
 *   and so on down, when the one that took it over died holding the claim's claim (see MAX_CLAIM_DEPTH). A claim is
 *   also taken over when it is older than any takeover takes (see lock-leftovers.ts), whoever holds it.
 * Returns 'held', 'lost' (judge again), or the live process that holds the claim.
 */
function takeOver(file: string, judged: string, depth: number): 'held' | 'lost' | ProcessIdentity {
  const claim = takeoverClaimFile(file, judged);
  if (!createLockFile(claim, ownLine())) {
    const claimText = readLockFile(claim);
    if (claimText === undefined) return 'lost';
    if (!isLeftover(claim, claimText)) return parseIdentity(claimText) ?? 'lost';
    if (depth >= MAX_CLAIM_DEPTH || takeOver(claim, claimText, depth + 1) !== 'held') return 'lost';
  }
  try {
    if (readLockFile(file) !== judged) return 'lost';
    rmSync(file, { force: true });
    return createLockFile(file, ownLine()) ? 'held' : 'lost';
  } finally {
    rmSync(claim, { force: true });
  }
}

/**
 * How many claims of claims a takeover goes down. Each level left stale takes one more process killed within the few
 * file operations of its takeover, and each adds 26 characters to a name that must stay a file name.
 */
const MAX_CLAIM_DEPTH = 4;

/** The claim to create before taking over the lock `file` that read `judged` (see takeOver). */
export function takeoverClaimFile(file: string, judged: string): string {
  return `${file}.${createHash('sha256').update(judged).digest('hex').slice(0, 16)}.takeover`;
}

function markHeld(file: string): void {
  held.set(file, 1);
  if (releaseOnExit) return;
  releaseOnExit = true;
  process.once('exit', () => {
    for (const lock of held.keys()) removeIfOwn(lock);
  });
}

function inUse(id: string, file: string, holder: ProcessIdentity, purpose: 'converse' | 'delete'): SessionInUseError {
  const meanwhile = purpose === 'delete' ? 'then delete the session again' : 'or start a new conversation';
  if (onOtherHost(holder)) {
    return new SessionInUseError(
      `session ${id} is open in an mcp-host on ${holder.host} (pid ${holder.pid}); leave that chat first, ${meanwhile} (whether it still runs cannot be seen from this machine: if no chat on ${holder.host} has it open, delete ${file})`,
    );
  }
  return new SessionInUseError(
    `session ${id} is open in another mcp-host (pid ${holder.pid}); leave that chat first, ${meanwhile} (if no such process is yours, delete ${file})`,
  );
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
  removeIfOwn(file);
}

function ownLine(): string {
  return `${formatIdentity(self())}\n`;
}

/** Removes the lock if it still names this process (someone may have deleted it by hand and another taken it). */
function removeIfOwn(file: string): void {
  let text: string | undefined;
  try {
    text = readLockFile(file);
  } catch {
    return;
  }
  const holder = text === undefined ? undefined : parseIdentity(text);
  if (holder !== undefined && !differs(holder, self())) rmSync(file, { force: true });
}
