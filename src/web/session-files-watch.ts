/**
 * Tells the pages when the saved sessions change while they are open: a terminal chat (another process) saving one,
 * or one removed, tells this process nothing. The folder is looked at about once a second (the names, sizes and times
 * of its session files, no file read), as following the audit log polls, since file-system events are unreliable on
 * network and container file systems. What the folder holds is untrusted: however many files come at once, a change
 * is told at most once a second, and the looks and the listings they lead to are spaced by their own cost (a look
 * waits 20 times as long as the last one took, a change is told no sooner than 10 times the last listing's time
 * after the one before), so a folder of many thousands of files costs a small, bounded share of the time.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sessionIdOfFileName } from '../sessions/session-id.js';

const LOOK_EVERY_MS = 1_000;
const TELL_AT_MOST_EVERY_MS = 1_000;
const LOOK_COST_SHARE = 20;
const LISTING_COST_SHARE = 10;
const STATS_AT_ONCE = 64;

/** What the folder's session files are now, as one digest: names, sizes and modification times. */
async function folderState(folder: string): Promise<string> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 'absent';
  }
  const sessionFiles = names.filter((name) => sessionIdOfFileName(name) !== undefined).sort();
  const digest = createHash('sha256');
  // A few at a time: the file system's threads work together, and the event loop stays free for the pages.
  for (let start = 0; start < sessionFiles.length; start += STATS_AT_ONCE) {
    const batch = sessionFiles.slice(start, start + STATS_AT_ONCE);
    const stats = await Promise.all(batch.map((name) => stat(join(folder, name)).catch(() => undefined)));
    batch.forEach((name, index) => {
      const found = stats[index];
      // One removed since the folder was read is not there.
      if (found !== undefined) digest.update(`${name}\0${found.size}\0${found.mtimeMs}\n`);
    });
  }
  return digest.digest('hex');
}

/** Looks at `folder` until `signal` aborts (the UI closes), even when that was before it started. */
export function watchSessionFiles(options: {
  folder: string;
  onChange: () => void;
  /** How long reading the list of sessions took last, in milliseconds. */
  listingMs: () => number;
  signal: AbortSignal;
}): void {
  const { signal } = options;
  let timer: NodeJS.Timeout | undefined;
  let seen: string | undefined;
  let changed = false;
  let toldAt = 0;
  const look = async () => {
    if (signal.aborted) return;
    const started = performance.now();
    const now = await folderState(options.folder);
    const tookMs = performance.now() - started;
    if (signal.aborted) return;
    if (seen !== undefined && now !== seen) changed = true;
    seen = now;
    const spacing = Math.max(TELL_AT_MOST_EVERY_MS, LISTING_COST_SHARE * options.listingMs());
    if (changed && Date.now() - toldAt >= spacing) {
      changed = false;
      toldAt = Date.now();
      options.onChange();
    }
    timer = setTimeout(() => void look(), Math.max(LOOK_EVERY_MS, LOOK_COST_SHARE * tookMs));
    timer.unref();
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  void look();
}
