/**
 * A server's log messages (`notifications/message`) are for people reading them later; a server that sends
 * hundreds of thousands of them must not fill memory, the disk or the terminal, nor starve its own calls. Each server
 * may send a burst of {@link LOG_BURST} messages, then {@link LOG_MESSAGES_PER_SECOND} a second; the rest are
 * dropped and counted, and one warning per flood says how many (once the flood has paused for a second, or every
 * {@link LOG_DROP_REPORT_MAX_MS} while it goes on). Other floods of lines (a client's refused lines) pass the same
 * gate at a rate of their own.
 */

export const LOG_MESSAGES_PER_SECOND = 100;
const LOG_BURST = 500;
const QUIET_BEFORE_REPORT_MS = 1_000;
const LOG_DROP_REPORT_MAX_MS = 30_000;

export interface LogRateGate {
  /** Whether this message may pass; a dropped one is counted for the warning. */
  admit(): boolean;
  /** Reports drops not yet reported and stops the timer. */
  close(): void;
}

export function createLogRateGate(
  report: (dropped: number) => void,
  now: () => number = Date.now,
  { burst, perSecond }: { burst: number; perSecond: number } = { burst: LOG_BURST, perSecond: LOG_MESSAGES_PER_SECOND },
): LogRateGate {
  let tokens = burst;
  let refilledAt = now();
  let dropped = 0;
  let firstDropAt = 0;
  let lastDropAt = 0;
  let timer: NodeJS.Timeout | undefined;

  const flush = (): void => {
    timer = undefined;
    if (dropped === 0) return;
    const count = dropped;
    dropped = 0;
    report(count);
  };
  const schedule = (): void => {
    if (timer) return;
    timer = setTimeout(function check() {
      const current = now();
      if (current - lastDropAt >= QUIET_BEFORE_REPORT_MS || current - firstDropAt >= LOG_DROP_REPORT_MAX_MS) {
        flush();
        return;
      }
      timer = setTimeout(check, QUIET_BEFORE_REPORT_MS - (current - lastDropAt));
      timer.unref();
    }, QUIET_BEFORE_REPORT_MS);
    timer.unref();
  };

  return {
    admit() {
      const current = now();
      tokens = Math.min(burst, tokens + ((current - refilledAt) / 1_000) * perSecond);
      refilledAt = current;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      if (dropped === 0) firstDropAt = current;
      dropped += 1;
      lastDropAt = current;
      schedule();
      return false;
    },
    close() {
      clearTimeout(timer);
      flush();
    },
  };
}
