/**
 * Servers may announce `list_changed` in bursts; clients re-list on each one. The gateway tells its clients at most
 * once per interval per key (profile, or kind): the first at once, and one more at the end of the interval when
 * more came meanwhile. A server that never stops announcing is still heard, once per interval, where waiting for a
 * quiet interval would never tell the clients at all.
 */

const LIST_CHANGED_INTERVAL_MS = 200;

export class ListChangedThrottle {
  /** Keys within their interval, and whether another change came in it. */
  private readonly recent = new Map<string, { again: boolean; timer: NodeJS.Timeout }>();

  constructor(
    private readonly notify: (profile: string | undefined) => void,
    private readonly intervalMs = LIST_CHANGED_INTERVAL_MS,
  ) {}

  changed(profile: string | undefined): void {
    const key = profile ?? '';
    const recent = this.recent.get(key);
    if (recent !== undefined) {
      recent.again = true;
      return;
    }
    this.notify(profile);
    this.holdBack(key, profile);
  }

  close(): void {
    for (const { timer } of this.recent.values()) clearTimeout(timer);
    this.recent.clear();
  }

  private holdBack(key: string, profile: string | undefined): void {
    const entry = {
      again: false,
      timer: setTimeout(() => {
        this.recent.delete(key);
        if (!entry.again) return;
        this.notify(profile);
        this.holdBack(key, profile);
      }, this.intervalMs),
    };
    this.recent.set(key, entry);
  }
}
