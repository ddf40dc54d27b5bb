/**
 * Cut results are kept per host session in `results/<pid>-<session>/` and deleted when the session closes. A
 * host that was killed cannot delete its folder; the next host does, once the process that made it is gone.
 * Files from before sessions had folders (`results/res_*.txt`) are deleted too.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

const SESSION_FOLDER = /^(\d+)-[A-Za-z0-9]+$/;
const LEGACY_FILE = /^res_[A-Za-z0-9_-]{24}\.txt$/;

/** A folder name for a new session of this process: `<pid>-<random>`. */
export function resultSessionFolderName(): string {
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Deletes session folders of processes that no longer run, and legacy result files; returns what it deleted. */
export async function removeStaleResultFolders(resultsDirectory: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(resultsDirectory);
  } catch {
    return [];
  }
  const stale = names.filter((name) => {
    if (LEGACY_FILE.test(name)) return true;
    const pid = SESSION_FOLDER.exec(name)?.[1];
    return pid !== undefined && !isRunning(Number(pid));
  });
  await Promise.all(stale.map((name) => rm(join(resultsDirectory, name), { recursive: true, force: true })));
  return stale;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
