/**
 * Long loops over what a server sent (thousands of tools, megabyte descriptions) must not hold the event loop:
 * a signal handler, a timer or a second server waiting behind them would wait too. `createBreather` gives back a
 * function to await inside such a loop: it yields once per time slice and stops the loop once the signal aborts.
 */

/** Work done between two yields, in milliseconds. */
const SLICE_MS = 20;

export function createBreather(signal?: AbortSignal): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < SLICE_MS) {
      signal?.throwIfAborted();
      return;
    }
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
    signal?.throwIfAborted();
  };
}
