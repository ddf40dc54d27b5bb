/**
 * A server made to answer one HTTP request (stateless serving) stays among its profile's sessions until it is closed,
 * so it is closed on every way the request can end: its answer read to the end, the request abandoned (before the
 * answer came, too), or answering failed.
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

/** Calls `done` once the response's body has been read to its end or the request was abandoned. */
function closingWhenDone(response: Response, signal: AbortSignal, done: () => void): Response {
  let closed = false;
  const once = (): void => {
    if (closed) return;
    closed = true;
    done();
  };
  // Abandoned while the answer was made: no abort event comes any more, and a body given up is not flushed.
  if (signal.aborted || response.body === null) {
    once();
    return response;
  }
  signal.addEventListener('abort', once, { once: true });
  const body = response.body.pipeThrough(new TransformStream({ flush: once }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
