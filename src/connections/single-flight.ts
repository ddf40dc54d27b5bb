/**
 * Runs a task at most once at a time; requests that arrive while it runs collapse into ONE
 * trailing run, so a storm of notifications costs at most two runs.
 */
export class SingleFlight<T> {
  private running?: Promise<T>;
  private trailing?: Promise<T>;

  constructor(private readonly task: () => Promise<T>) {}

  run(): Promise<T> {
    if (!this.running) {
      this.running = this.task().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.trailing ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.trailing = undefined;
        return this.run();
      });
    return this.trailing;
  }
}
