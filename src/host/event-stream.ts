/** Bridges a callback-driven run into an async iterable of events, for `for await` consumers. */
export function eventStream<E>(start: (emit: (event: E) => void) => Promise<unknown>): AsyncIterable<E> {
  return {
    [Symbol.asyncIterator]() {
      const queue: E[] = [];
      let finished = false;
      let failure: unknown;
      let wake: (() => void) | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      start((event) => {
        queue.push(event);
        notify();
      }).then(
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
          if (failure !== undefined) throw failure;
          return { value: undefined, done: true };
        },
      };
    },
  };
}
