/**
 * Servers may announce `list_changed` in bursts; clients re-list on each one. The gateway tells its clients at most
 * once per quiet interval per profile.
 */

const LIST_CHANGED_DEBOUNCE_MS = 200;

export class ListChangedDebouncer {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly notify: (profile: string | undefined) => void,
    private readonly delayMs = LIST_CHANGED_DEBOUNCE_MS,
  ) {}

  changed(profile: string | undefined): void {
    const key = profile ?? '';
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.notify(profile);
      }, this.delayMs),
    );
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
