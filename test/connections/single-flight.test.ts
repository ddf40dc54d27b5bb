/**
 * SingleFlight: one run at a time; everyone who asks while it runs shares ONE trailing run; a failure reaches the
 * callers of that run only, and the next request after things settle starts afresh.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SingleFlight } from '../../src/connections/single-flight.js';

/** A task whose runs the test finishes by hand, in order. */
function manualTask() {
  const runs: Array<{ resolve: (value: number) => void; reject: (error: Error) => void }> = [];
  const task = () =>
    new Promise<number>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return { runs, task };
}

/** Lets promise callbacks (and the trailing run's start) happen. */
async function flushMicrotasks(): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SingleFlight', () => {
  it('runs once for a single caller and gives it the result', async () => {
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task);
    const result = flight.run();
    expect(runs).toHaveLength(1);
    runs[0]!.resolve(7);
    await expect(result).resolves.toBe(7);
  });

  it('gives every caller during a run one shared trailing run, started only after the first ends', async () => {
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task);
    const first = flight.run();
    const second = flight.run();
    const third = flight.run();
    const fourth = flight.run();
    expect(second).toBe(third);
    expect(third).toBe(fourth);
    expect(second).not.toBe(first);
    await flushMicrotasks();
    expect(runs).toHaveLength(1);

    runs[0]!.resolve(1);
    await expect(first).resolves.toBe(1);
    await flushMicrotasks();
    expect(runs).toHaveLength(2);
    // A caller arriving while the trailing run runs is not given a result from before its request.
    const fifth = flight.run();
    expect(fifth).not.toBe(second);

    runs[1]!.resolve(2);
    await expect(second).resolves.toBe(2);
    await flushMicrotasks();
    expect(runs).toHaveLength(3);
    runs[2]!.resolve(3);
    await expect(fifth).resolves.toBe(3);
    expect(runs).toHaveLength(3);
  });

  it('rejects the callers of a failed run with its error, and still runs the trailing run for those who waited', async () => {
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task);
    const first = flight.run();
    const waiting = flight.run();
    runs[0]!.reject(new Error('listing failed'));
    await expect(first).rejects.toThrow('listing failed');
    await flushMicrotasks();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve(5);
    await expect(waiting).resolves.toBe(5);
  });

  it('rejects every caller sharing a failed trailing run', async () => {
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task);
    const first = flight.run();
    const a = flight.run();
    const b = flight.run();
    runs[0]!.resolve(1);
    await first;
    await flushMicrotasks();
    runs[1]!.reject(new Error('trailing failed'));
    await expect(a).rejects.toThrow('trailing failed');
    await expect(b).rejects.toThrow('trailing failed');
  });

  it('starts afresh after a failure: the next request runs the task again and gets its own result', async () => {
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task);
    const failed = flight.run();
    runs[0]!.reject(new Error('once'));
    await expect(failed).rejects.toThrow('once');

    const next = flight.run();
    expect(next).not.toBe(failed);
    expect(runs).toHaveLength(2);
    runs[1]!.resolve(9);
    await expect(next).resolves.toBe(9);
  });

  it('starts afresh after a success: a later request does not get the earlier result', async () => {
    let calls = 0;
    const flight = new SingleFlight(async () => ++calls);
    await expect(flight.run()).resolves.toBe(1);
    await expect(flight.run()).resolves.toBe(2);
  });

  it('holds the trailing run until requests have been quiet for settleMs', async () => {
    vi.useFakeTimers();
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task, { settleMs: 100, maxWaitMs: 10_000 });
    void flight.run();
    const trailing = flight.run();
    runs[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    // Requests keep coming every 50 ms for half a second: still no second run.
    for (let tick = 0; tick < 10; tick += 1) {
      await vi.advanceTimersByTimeAsync(50);
      expect(flight.run()).toBe(trailing);
    }
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    runs[1]!.resolve(2);
    await expect(trailing).resolves.toBe(2);
  });

  it('starts the trailing run by maxWaitMs after the first ended, even while requests keep coming', async () => {
    vi.useFakeTimers();
    const { runs, task } = manualTask();
    const flight = new SingleFlight(task, { settleMs: 100, maxWaitMs: 300 });
    void flight.run();
    const trailing = flight.run();
    runs[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    for (let elapsed = 0; elapsed < 290; elapsed += 10) {
      await vi.advanceTimersByTimeAsync(10);
      flight.run();
    }
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(2);
    runs[1]!.resolve(2);
    await expect(trailing).resolves.toBe(2);
  });
});
