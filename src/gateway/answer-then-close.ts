/**
 * A server made to answer one HTTP request (stateless serving) stays among its profile's sessions until it is closed,
 * so it is closed on every way the request can end: its answer read to the end, its answer's reader cancelling it,
 * the request abandoned (before the answer came, too), or answering failed.
 */

/** `answer`'s response, with `done` called once when any of those happens. */
export async function answerThenClose(
  signal: AbortSignal,
  answer: () => Promise<Response>,
  done: () => void,
): Promise<Response> {
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    done();
    throw error;
  }
  return closingWhenDone(response, signal, done);
}

/**
 * Calls `done` once the response's body has been read to its end, failed or been cancelled by its reader, or the
 * request was abandoned.
 */
function closingWhenDone(response: Response, signal: AbortSignal, done: () => void): Response {
  let closed = false;
  const once = (): void => {
    if (closed) return;
    closed = true;
    signal.removeEventListener('abort', once);
    done();
  };
  // Abandoned while the answer was made: no abort event comes any more, and a body given up is not flushed.
  if (signal.aborted || response.body === null) {
    once();
    return response;
  }
  signal.addEventListener('abort', once, { once: true });
  // Read by hand rather than through a transform: a transformer's `cancel` is called only from Node 20.14 on.
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const read = await reader.read().catch((error: unknown) => {
        once();
        throw error;
      });
      if (!read.done) return controller.enqueue(read.value);
      controller.close();
      once();
    },
    async cancel(reason) {
      once();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
