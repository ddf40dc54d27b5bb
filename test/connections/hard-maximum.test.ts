/**
 * A call's own signal, which its hard maximum aborts, is handed on to a later call once the call has ended without
 * aborting it: a later call never gets a signal that is aborted, and a progress notification that comes after its
 * call ended cannot start the hard maximum's timer on the call that has the signal since.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withHardMaximum } from '../../src/connections/hard-maximum.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A call that captures what withHardMaximum gives it and ends when `end` is called. */
function heldCall() {
  let end: (value: string) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const seen: { signal?: AbortSignal; progressed?: () => void } = {};
  const call = (signal: AbortSignal | undefined, progressed: () => void) => {
    seen.signal = signal;
    seen.progressed = progressed;
    return new Promise<string>((resolve, reject) => {
      end = resolve;
      fail = reject;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { call, seen, end: (value: string) => end(value), fail: (error: unknown) => fail(error) };
}

describe('the hard maximum of a call', () => {
  it('cuts a call that sends progress at its maximum, and gives the next call a signal not aborted', async () => {
    vi.useFakeTimers();
    const first = heldCall();
    const cut = withHardMaximum(50, undefined, first.call);
    first.seen.progressed?.();
    vi.advanceTimersByTime(50);
    await expect(cut).rejects.toThrow('Maximum total timeout exceeded');
    expect(first.seen.signal?.aborted).toBe(true);

    const second = heldCall();
    const next = withHardMaximum(50, undefined, second.call);
    expect(second.seen.signal).not.toBe(first.seen.signal);
    expect(second.seen.signal?.aborted).toBe(false);
    second.end('done');
    await expect(next).resolves.toBe('done');
  });

  it('gives the next call a signal not aborted after a call its caller cancelled', async () => {
    const caller = new AbortController();
    const first = heldCall();
    const cancelled = withHardMaximum(60_000, caller.signal, first.call);
    caller.abort(new Error('stopped by the caller'));
    await expect(cancelled).rejects.toThrow('stopped by the caller');

    const second = heldCall();
    const next = withHardMaximum(60_000, undefined, second.call);
    expect(second.seen.signal?.aborted).toBe(false);
    second.end('done');
    await expect(next).resolves.toBe('done');
  });

  it('starts no timer from a progress notification that comes after its call ended', async () => {
    vi.useFakeTimers();
    const first = heldCall();
    const ended = withHardMaximum(50, undefined, first.call);
    first.end('first');
    await expect(ended).resolves.toBe('first');

    // The next call may be handed the same signal; the first call's late progress must not cut it.
    const second = heldCall();
    const next = withHardMaximum(60_000, undefined, second.call);
    first.seen.progressed?.();
    vi.advanceTimersByTime(60);
    expect(vi.getTimerCount()).toBe(0);
    expect(second.seen.signal?.aborted).toBe(false);
    second.end('second');
    await expect(next).resolves.toBe('second');
  });
});
