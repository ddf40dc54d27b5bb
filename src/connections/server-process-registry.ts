/**
 * Every server process group the host has started and not yet stopped, so that they can all be stopped at
 * once: when the user presses Ctrl-C a second time, or when the host process exits without closing its
 * servers (an uncaught error, `process.exit`). Killing the groups is synchronous, the only kind of work an
 * `exit` handler can do. A host killed with SIGKILL runs nothing; its servers see stdin close and should exit.
 */

interface StoppableServerProcess {
  /** Sends SIGKILL to the server's whole process group. */
  killNow(): void;
}

const live = new Set<StoppableServerProcess>();
let exitHookInstalled = false;

export function trackServerProcess(server: StoppableServerProcess): void {
  live.add(server);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => stopAllServerProcessesNow());
  }
}

export function untrackServerProcess(server: StoppableServerProcess): void {
  live.delete(server);
}

/** Kills every tracked server process group now; returns how many there were. */
export function stopAllServerProcessesNow(): number {
  const count = live.size;
  for (const server of [...live]) {
    server.killNow();
    live.delete(server);
  }
  return count;
}
