/**
 * Bounds what a remote server's HTTP responses may make the host hold: the `fetch` the SDK's HTTP transports use is
 * wrapped so that each response body is counted as it streams in.
 *
 * A JSON body is one message: past `maxMessageBytes` its stream fails with the size error, which fails the request
 * that is waiting for it. An event stream carries many messages: each event is counted on its own, and only whole
 * events are passed on. An event past the limit is dropped, the stream is ended, and each request the POST carried
 * is answered with an error saying so (without that, the request would wait for its timeout). A stream with no
 * request of ours behind it (the standing GET stream) fails with the size error instead.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { tooLargeMessageText } from './message-size-limit.js';

/** The JSON-RPC error code of the answer the host puts in place of a response past the limit. */
const RESPONSE_TOO_LARGE_CODE = -32_090;

const OUTCOME = 'the host stopped reading the response';

/** The failure of a response body past the limit. */
class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
}

/** The size error's text if `error` (or what caused it) is a response past the limit, else undefined. */
export function responseTooLargeText(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof ResponseTooLargeError) return current.message;
    const { code, message } = current as { code?: unknown; message?: unknown };
    // The answer put in place of an SSE event past the limit comes back as the SDK's ProtocolError.
    if (code === RESPONSE_TOO_LARGE_CODE && typeof message === 'string')
      return message.replace(/^MCP error -?\d+: /, '');
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function limitResponseSize(fetchImpl: FetchLike, limit: number): FetchLike {
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    if (!response.body) return response;
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const limited =
      mediaType === 'text/event-stream'
        ? response.body.pipeThrough(eventSizeLimit(limit, requestIdsOf(init?.body)))
        : response.body.pipeThrough(bodySizeLimit(limit));
    return withBody(response, limited);
  };
}

function bodySizeLimit(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) {
        controller.error(new ResponseTooLargeError(tooLargeMessageText(limit, seen, OUTCOME)));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

function eventSizeLimit(limit: number, requestIds: Array<string | number>): TransformStream<Uint8Array, Uint8Array> {
  // The current event's bytes not yet passed on, and how many there are.
  let pending: Uint8Array[] = [];
  let eventBytes = 0;
  let lineHasContent = false;
  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      let passFrom = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const lineEnd = newline === -1 ? chunk.length : newline;
        const length = lineEnd - start;
        if (length > 1 || (length === 1 && chunk[start] !== 0x0d)) lineHasContent = true;
        const next = newline === -1 ? chunk.length : newline + 1;
        eventBytes += next - start;
        if (eventBytes > limit) {
          pending = [];
          refuseEvent(controller, limit, eventBytes, requestIds);
          return;
        }
        if (newline !== -1) {
          // A blank line ends an event: pass the whole event on.
          if (!lineHasContent) {
            for (const piece of pending) controller.enqueue(piece);
            pending = [];
            controller.enqueue(chunk.subarray(passFrom, next));
            passFrom = next;
            eventBytes = 0;
          }
          lineHasContent = false;
        }
        start = next;
      }
      if (passFrom < chunk.length) pending.push(chunk.subarray(passFrom));
    },
    flush(controller) {
      for (const piece of pending) controller.enqueue(piece);
    },
  });
}

function refuseEvent(
  controller: TransformStreamDefaultController<Uint8Array>,
  limit: number,
  bytes: number,
  requestIds: Array<string | number>,
): void {
  const message = tooLargeMessageText(limit, bytes, OUTCOME);
  if (requestIds.length === 0) {
    controller.error(new ResponseTooLargeError(message));
    return;
  }
  const encoder = new TextEncoder();
  for (const id of requestIds) {
    const answer = { jsonrpc: '2.0', id, error: { code: RESPONSE_TOO_LARGE_CODE, message } };
    controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
  }
  controller.terminate();
}

/** The ids of the requests in a POST body the host serialised (one message or a batch). */
function requestIdsOf(body: unknown): Array<string | number> {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: Array<string | number> = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** The same response with another body; what the SDK reads besides the body is carried over. */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const limited = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(limited, 'url', { value: response.url });
  Object.defineProperty(limited, 'redirected', { value: response.redirected });
  return limited;
}
