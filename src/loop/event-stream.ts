/**
 * Bridges a callback-driven run into an async iterable of events, for `for await` consumers. Leaving the loop early
 * (`break`, `return`, an exception) calls `return()`, which aborts the run and waits for it to end, so no call is
 * made after the consumer has gone.
 */
export function eventStream<E>(
  start: (emit: (event: E) => void, signal: AbortSignal) => Promise<unknown>,
): AsyncIterable<E> {
  return {
    [Symbol.asyncIterator]() {
      const queue: E[] = [];
      const controller = new AbortController();
      let finished = false;
      let failure: unknown;
      let wake: (() => void) | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      const running = start((event) => {
        if (controller.signal.aborted) return;
        queue.push(event);
        notify();
      }, controller.signal).then(
        () => {
          finished = true;
          notify();
        },
        (error: unknown) => {
          failure = error ?? new Error('the run failed');
          finished = true;
          notify();
        },
      );
      return {
        async next(): Promise<IteratorResult<E>> {
          while (queue.length === 0 && !finished) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
          if (queue.length > 0) return { value: queue.shift()!, done: false };
          if (failure !== undefined && !controller.signal.aborted) throw failure;
          return { value: undefined, done: true };
        },
        async return(): Promise<IteratorResult<E>> {
          if (!finished) controller.abort(new Error('the event stream was closed by its consumer'));
          queue.length = 0;
          await running;
          return { value: undefined, done: true };
        },
      };
    },
  };
}
