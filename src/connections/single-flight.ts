/**
 * Runs a task at most once at a time; requests that arrive while it runs collapse into ONE trailing run.
 *
 * A storm of notifications spread over a while (200 `list_changed` in ten bursts over 100 ms) would still
 * cost one run per task duration if the trailing run started as soon as the first ended, so the trailing run
 * also waits until requests have stopped for `settleMs` (but never longer than `maxWaitMs`): such a storm
 * costs two runs, the first at once and one after it has passed.
 */
interface SingleFlightOptions {
  /** Quiet time the trailing run waits for after the latest request. Default 0 (start at once). */
  settleMs?: number;
  /** The trailing run starts at the latest this long after the first run ended. Default 1,000 ms. */
  maxWaitMs?: number;
}

export class SingleFlight<T> {
  private running?: Promise<T>;
  private trailing?: Promise<T>;
  private lastRequestAt = 0;

  constructor(
    private readonly task: () => Promise<T>,
    private readonly options: SingleFlightOptions = {},
  ) {}

  run(): Promise<T> {
    this.lastRequestAt = Date.now();
    if (this.trailing) return this.trailing;
    if (!this.running) {
      this.running = this.task().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.trailing = this.running
      .catch(() => undefined)
      .then(() => this.settle())
      .then(() => {
        this.trailing = undefined;
        return this.run();
      });
    return this.trailing;
  }

  private async settle(): Promise<void> {
    const settleMs = this.options.settleMs ?? 0;
    const deadline = Date.now() + (this.options.maxWaitMs ?? 1_000);
    for (;;) {
      const now = Date.now();
      const quietFor = now - this.lastRequestAt;
      if (quietFor >= settleMs || now >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(settleMs - quietFor, deadline - now)));
    }
  }
}
