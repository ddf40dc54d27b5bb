/**
 * Servers announce changes in bursts (`list_changed`, `resources/updated`), and each announcement only tells a client
 * to read again. The gateway passes one on at most once per interval per key: the first at once, and one more at the
 * end of the interval when more came meanwhile (the last one's value). A server that never stops announcing is still
 * heard, once per interval, where waiting for a quiet interval would never tell the clients at all.
 */

const DEFAULT_INTERVAL_MS = 200;

export class KeyedThrottle<Value> {
  /** Keys within their interval, and the value to pass on at its end when another came in it. */
  private readonly recent = new Map<string, { again?: { value: Value }; timer: NodeJS.Timeout }>();

  constructor(
    private readonly passOn: (value: Value) => void,
    private readonly intervalMs = DEFAULT_INTERVAL_MS,
  ) {}

  changed(key: string, value: Value): void {
    const recent = this.recent.get(key);
    if (recent !== undefined) {
      recent.again = { value };
      return;
    }
    this.passOn(value);
    this.holdBack(key);
  }

  close(): void {
    for (const { timer } of this.recent.values()) clearTimeout(timer);
    this.recent.clear();
  }

  private holdBack(key: string): void {
    const entry: { again?: { value: Value }; timer: NodeJS.Timeout } = {
      timer: setTimeout(() => {
        this.recent.delete(key);
        if (entry.again === undefined) return;
        this.passOn(entry.again.value);
        this.holdBack(key);
      }, this.intervalMs).unref(),
    };
    this.recent.set(key, entry);
  }
}
