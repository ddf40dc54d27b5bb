/**
 * Child processes a helper started and has not stopped yet. A helper that is still waiting for its process to be
 * ready when the test's hook times out never hands the process back, so the test cannot stop it: each test file's
 * setup ends whatever is left here once the file is done (SIGKILL, by pid).
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

/** Remembers `child` until it exits. */
export function trackUntilExit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** Kills every tracked process still running. */
export function killLeftRunning(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    running.delete(child);
  }
}
