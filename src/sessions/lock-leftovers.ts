/**
 * What a process killed between the steps of taking a lock leaves beside it: its draft (`<lock>.<pid>-<random>.draft`,
 * see lock-file.ts) and its takeover claim (`<lock>.<digest>.takeover`, and the claims and drafts of those, see
 * session-lock.ts). Each lives for a few file operations of a process that holds no other, and names its writer (a
 * draft holds the text it is about to become, a claim its claimer's identity), so one whose writer has ended is left
 * over, and so is one older than LEFTOVER_AGE_MS whoever wrote it: a writer of another host cannot be seen from here,
 * and a draft killed before its text was written names its writer only by the pid in its name.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readLockFile } from './lock-file.js';
import { mayStillRun, type ProcessIdentity, parseIdentity } from './process-identity.js';

/** Far longer than any step of taking a lock, short enough that a leftover of another host is not kept for long. */
const LEFTOVER_AGE_MS = 10 * 60_000;

const DRAFT_NAME = /\.(\d+)-[0-9a-f]+\.draft$/;

/** Whether the draft or claim `file`, which read `text`, is left by a writer that has ended or has been there too long. */
export function isLeftover(file: string, text: string): boolean {
  if (ageMs(file) > LEFTOVER_AGE_MS) return true;
  const writer = parseIdentity(text) ?? draftWriter(file);
  return writer === undefined || !mayStillRun(writer);
}

/**
 * Removes the leftover drafts and claims of the lock `lockFile`, which this process has just taken. A claim of any
 * text but this process's own lock can lead nowhere now (the lock cannot come back to a text whose writer has ended),
 * so removing one while its claimer is still at work costs that claimer nothing but a judgement made again.
 */
export function removeLockLeftovers(lockFile: string): void {
  const directory = dirname(lockFile);
  const prefix = `${basename(lockFile)}.`;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !(name.endsWith('.draft') || name.endsWith('.takeover'))) continue;
    const file = join(directory, name);
    try {
      const text = readLockFile(file);
      if (text !== undefined && isLeftover(file, text)) rmSync(file, { force: true });
    } catch {
      // Unreadable or not removable here: it is left for the user, and it blocks no lock.
    }
  }
}

/** The writer a draft names by its pid, for one killed before its text was written. */
function draftWriter(file: string): ProcessIdentity | undefined {
  const pid = DRAFT_NAME.exec(basename(file))?.[1];
  return pid === undefined ? undefined : { pid: Number(pid) };
}

/** How long ago `file` was last written; 0 when it is gone (the caller's text then judges it). */
function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
