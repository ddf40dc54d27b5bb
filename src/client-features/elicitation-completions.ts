/**
 * `notifications/elicitation/complete` as each server sends it: a call refused with -32042 is sent again once the
 * server says the page the user opened is done, not the moment the browser opens.
 */

import { abortableSignal } from '../connections/never-aborted.js';

/** How long the host waits for a server that never says the page is done before sending the call again anyway. */
export const ELICITATION_COMPLETE_WAIT_MS = 120_000;
// Ids a server said were complete before anyone waited for them (the page can finish before the wait begins).
const MAX_REMEMBERED = 100;

export class ElicitationCompletions {
  private readonly completed = new Map<string, Set<string>>();
  private readonly waiters = new Map<string, () => void>();

  complete(server: string, elicitationId: string): void {
    const key = `${server}\u0000${elicitationId}`;
    const wake = this.waiters.get(key);
    if (wake) {
      wake();
      return;
    }
    const ids = this.completed.get(server) ?? new Set<string>();
    ids.add(elicitationId);
    if (ids.size > MAX_REMEMBERED) ids.delete(ids.values().next().value as string);
    this.completed.set(server, ids);
  }

  /** Resolves `complete`, `timeout` or `cancelled`, whichever comes first. */
  wait(
    server: string,
    elicitationId: string,
    timeoutMs: number,
    given?: AbortSignal,
  ): Promise<'complete' | 'timeout' | 'cancelled'> {
    // The shared signal of calls made without one never aborts: nothing to listen to while the user finishes.
    const signal = abortableSignal(given);
    if (this.completed.get(server)?.delete(elicitationId)) return Promise.resolve('complete');
    if (signal?.aborted) return Promise.resolve('cancelled');
    const key = `${server}\u0000${elicitationId}`;
    return new Promise((resolve) => {
      const finish = (how: 'complete' | 'timeout' | 'cancelled') => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(key);
        resolve(how);
      };
      const onAbort = () => finish('cancelled');
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(key, () => finish('complete'));
    });
  }
}
