/**
 * The web UI's watch of the sessions folder ends with the UI: one stopped looks no more, and one started after the
 * UI closed (the host finished starting after close) never looks. A watcher left running would read the folder every
 * second for as long as the process lives. Each watcher's looks are counted by the times it asks for the listing's
 * cost, which it does at every look; a watcher that goes on beside it shows that looks had time to happen.
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchSessionFiles } from '../../src/web/session-files-watch.js';

const SESSION_FILE = '20260101-100000-0000000a.jsonl';

/** A watcher of `folder` that counts its looks and the changes it tells of. */
function countedWatcher(folder: string, signal: AbortSignal) {
  const counts = { looks: 0, told: 0 };
  const waiters: Array<() => void> = [];
  watchSessionFiles({
    folder,
    signal,
    onChange: () => {
      counts.told += 1;
    },
    listingMs: () => {
      counts.looks += 1;
      for (const wake of waiters.splice(0)) wake();
      return 0;
    },
  });
  /** Resolves once the watcher has looked `more` times beyond what it has now. */
  const looksMore = async (more: number) => {
    const target = counts.looks + more;
    while (counts.looks < target) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { counts, looksMore };
}

describe('the watch of the sessions folder', () => {
  it('never looks when the UI closed before it started, and looks no more once the UI closes', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'mcp-host-sessions-watch-')), 'sessions');
    await mkdir(folder);
    const closedBefore = new AbortController();
    closedBefore.abort();
    const never = countedWatcher(folder, closedBefore.signal);
    const closedLater = new AbortController();
    const stopped = countedWatcher(folder, closedLater.signal);
    const stillOpen = new AbortController();
    const running = countedWatcher(folder, stillOpen.signal);
    try {
      // Each has seen the folder without the file.
      await Promise.all([stopped.looksMore(1), running.looksMore(1)]);
      closedLater.abort();
      const looksWhenStopped = stopped.counts.looks;

      await writeFile(join(folder, SESSION_FILE), '{"type":"session"}\n');
      // Two looks of the one still running: the first may have begun before the file was written.
      await running.looksMore(2);
      expect(running.counts.told).toBe(1);
      expect(never.counts).toEqual({ looks: 0, told: 0 });
      expect(stopped.counts).toEqual({ looks: looksWhenStopped, told: 0 });
    } finally {
      closedLater.abort();
      stillOpen.abort();
    }
  }, 30_000);
});
