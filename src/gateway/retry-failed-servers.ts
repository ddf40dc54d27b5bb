/**
 * A gateway runs unattended, so a server left failed (its remote end down as the gateway started, a start-up that
 * timed out, a crash loop the host stopped restarting) is started again later through the host's own restart, the
 * wait doubling after each attempt that fails, up to ten minutes. The host re-lists a server it starts, so clients
 * hear the tools it brings back as a list change.
 */
import type { Host } from '../host/create-host.js';
import { cutLine } from '../text/cut-line.js';

const LONGEST_WAIT_MS = 10 * 60_000;
/** How often the servers' states are looked at: often enough for a short first wait. */
const LOOK_EVERY_MS = 1_000;
/** A first wait of a few milliseconds would have them looked at all the time. */
const LOOK_AT_MOST_EVERY_MS = 100;

interface Retry {
  dueAt: number;
  waitMs: number;
  trying: boolean;
  /** When an attempt brought it back: it is forgotten once it has stayed up for the longest wait. */
  upSince?: number;
}

interface FailedServerRetries {
  /** No more attempts; resolves when one under way has ended, so that closing the host then stops what it started. */
  stop(): Promise<void>;
}

export function retryFailedServers(
  host: Host,
  firstWaitMs: number,
  say: (message: string) => void,
): FailedServerRetries {
  // A first wait longer than ten minutes is kept as it is rather than shortened after an attempt fails.
  const longestWaitMs = Math.max(LONGEST_WAIT_MS, firstWaitMs);
  const retries = new Map<string, Retry>();
  const underWay = new Set<Promise<void>>();
  const attempt = (name: string, retry: Retry) => {
    retry.trying = true;
    const failedAgain = (why: string | undefined) => {
      retry.waitMs = Math.min(retry.waitMs * 2, longestWaitMs);
      retry.dueAt = Date.now() + retry.waitMs;
      retry.trying = false;
      const reason = why === undefined ? '' : `: ${cutLine(why, 300)}`;
      say(`server "${name}" still fails to start${reason}; tried again in ${Math.round(retry.waitMs / 1000)} s`);
    };
    const attempted = host.restartServer(name).then(
      (status) => {
        if (status.state !== 'connected') return failedAgain(status.lastError);
        // Kept a while: one that fails again soon (a crash loop) waits longer each time rather than the first wait.
        retry.trying = false;
        retry.upSince = Date.now();
        say(`server "${name}" started again after failing`);
      },
      (error: unknown) => failedAgain(error instanceof Error ? error.message : String(error)),
    );
    underWay.add(attempted);
    void attempted.finally(() => underWay.delete(attempted));
  };
  const look = () => {
    const now = Date.now();
    for (const { name, unavailable } of host.config.servers) {
      // A server the config cannot start (a variable it needs is unset) stays as it is until the config changes.
      if (unavailable !== undefined) continue;
      // Its connection's state alone, not its whole status (stderr redacted and all), at every look. One switched off
      // has no connection, as one being restarted has for a moment: neither is failed.
      const state = host.connection(name)?.state;
      const retry = retries.get(name);
      if (state !== 'failed') {
        const upSince = retry?.upSince;
        if (upSince !== undefined && now - upSince >= longestWaitMs) retries.delete(name);
        continue;
      }
      if (retry === undefined) {
        retries.set(name, { dueAt: now + firstWaitMs, waitMs: firstWaitMs, trying: false });
      } else if (retry.upSince !== undefined) {
        // Back, then failed again before it had stayed up long: the next wait is longer.
        retry.upSince = undefined;
        retry.waitMs = Math.min(retry.waitMs * 2, longestWaitMs);
        retry.dueAt = now + retry.waitMs;
      } else if (!retry.trying && now >= retry.dueAt) {
        attempt(name, retry);
      }
    }
  };
  const timer = setInterval(look, Math.max(LOOK_AT_MOST_EVERY_MS, Math.min(LOOK_EVERY_MS, firstWaitMs)));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(underWay);
    },
  };
}
