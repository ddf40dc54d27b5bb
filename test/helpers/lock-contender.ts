/**
 * A lock-contender process (test/fixtures/sessions/lock-contender.mjs): given `{ folder, id }` on a line of its
 * stdin, it tries to hold that session's lock and writes `won <id>` or `lost <id> <reason>`; it writes `ready` once
 * started, and lets its locks go when its stdin ends.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from './project.js';

const contenderScript = join(repoRoot, 'test', 'fixtures', 'sessions', 'lock-contender.mjs');

export function startLockContender() {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [contenderScript], { stdio: 'pipe' });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  /** Its next line. */
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`contender ${child.pid} ended: ${stderr}`);
    return line.value;
  };
  /** Asks it to hold the session `id` of `folder`; its answer is its next line. */
  const hold = (folder: string, id: string) => child.stdin.write(`${JSON.stringify({ folder, id })}\n`);
  /** Closes its stdin and waits for it to exit, letting its locks go. */
  const end = async () => {
    const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
    child.stdin.end();
    await exited;
  };
  return { child, next, hold, end };
}

export type LockContender = ReturnType<typeof startLockContender>;
