/**
 * A POST answered as an event stream carries the answer to the client's request, and cutting it off would lose that
 * answer: a stateless gateway keeps no event store to resume it from, and a session's store is bounded, so the
 * client's last event may be gone by the time it resumes. So, as the stdio gateway does, a client that falls more
 * than {@link MAX_WAITING_RESPONSE_BYTES} behind reading such a stream has notifications to it (progress, log
 * messages) dropped until it has read some, while responses and the gateway's requests to it are always written.
 * What can wait is then bounded by what the request's answer and questions take, not by what its tool reports.
 *
 * A batch (a JSON array of requests in one POST) has as many answers as requests, each possibly large. While its
 * client is that far behind, its answers are written until they come to another
 * {@link MAX_WAITING_RESPONSE_BYTES} (the first always, however large, as for a single request); past that, each is
 * replaced by a JSON-RPC error for the same id naming the limit. What waits stays bounded by twice the limit and one
 * answer, not by the batch's count of large answers.
 * Every write is taken at once, as in cut-off-far-behind.ts, so nothing queues unbounded inside the SDK.
 */

import type { ServerResponse } from 'node:http';
import { MAX_WAITING_RESPONSE_BYTES } from './cut-off-far-behind.js';
import { isJsonRpcNotification, isJsonRpcResponse } from './json-rpc-shape.js';

export interface FarBehindNotices {
  /** Called at the first notification dropped. */
  notificationDropped(): void;
  /** Given for a stream answering a batch: called at the first answer replaced by an error. */
  answerRefused?(): void;
}

/** JSON-RPC's range for errors an implementation defines. */
const ANSWER_NOT_SENT = -32000;

export function dropNotificationsWhenFarBehind(
  response: ServerResponse,
  notices: FarBehindNotices,
  maxWaiting = MAX_WAITING_RESPONSE_BYTES,
): void {
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  let dropped = false;
  let refused = false;
  /** What a batch's answers written while far behind came to, since its client last caught up. */
  let answersWhileBehind = 0;
  response.write = ((...args: unknown[]): boolean => {
    if (response.destroyed) return false;
    const behind = response.writableLength > maxWaiting;
    if (!behind) answersWhileBehind = 0;
    // Only while far behind is a chunk looked into: a client that keeps up costs no parsing.
    const events = behind ? wholeEventsOf(args[0]) : undefined;
    if (events?.every((event) => isJsonRpcNotification(event.message))) {
      if (!dropped) {
        dropped = true;
        notices.notificationDropped();
      }
      // Taken, as far as the writer knows: the SDK then neither waits for 'drain' nor keeps it.
      const callback = callbackOf(args);
      if (callback !== undefined) queueMicrotask(callback);
      return true;
    }
    if (notices.answerRefused !== undefined && events?.some((event) => isJsonRpcResponse(event.message))) {
      if (answersWhileBehind > maxWaiting) {
        if (!refused) {
          refused = true;
          notices.answerRefused();
        }
        write(events.map((event) => refusedIfAnswer(event, maxWaiting)).join(''), 'utf8', callbackOf(args));
        return true;
      }
      answersWhileBehind += events.reduce((bytes, event) => bytes + Buffer.byteLength(event.text), 0);
    }
    write(...args);
    return true;
  }) as ServerResponse['write'];
}

interface StreamEvent {
  /** The event as written, with its closing blank line. */
  text: string;
  /** Its data parsed as JSON; undefined when it has none or it is not JSON. */
  message: unknown;
}

/**
 * A chunk written to an event stream as whole events; undefined when it is not text or ends inside an event (the
 * piece of an event written with its first half is never dropped nor changed).
 */
function wholeEventsOf(chunk: unknown): StreamEvent[] | undefined {
  const text =
    typeof chunk === 'string'
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8')
        : undefined;
  if (text === undefined || !text.endsWith('\n\n')) return undefined;
  const events = text
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => ({ text: `${event}\n\n`, message: dataOf(event) }));
  return events.length > 0 ? events : undefined;
}

function dataOf(event: string): unknown {
  const data = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).replace(/^ /, ''))
    .join('\n');
  if (data === '') return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** The callback a writer passed along with its chunk, looked for only where the chunk is not written as it is. */
function callbackOf(args: unknown[]): (() => void) | undefined {
  return args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
}

/** The event with its answer replaced by an error saying why; any other event as it was. */
function refusedIfAnswer(event: StreamEvent, maxWaiting: number): string {
  if (!isJsonRpcResponse(event.message)) return event.text;
  const refusal = {
    jsonrpc: '2.0',
    id: event.message.id,
    error: {
      code: ANSWER_NOT_SENT,
      message: `the answer to this request (${Buffer.byteLength(event.text)} bytes) was not sent: more than ${maxWaiting / 1024 / 1024} MB of this batch's stream were waiting for its client to read them. The request was handled; send it again alone or in a smaller batch for its answer`,
    },
  };
  // The event's other fields (its id in a session's event store) are kept.
  const kept = event.text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('data:'))
    .map((line) => `${line}\n`)
    .join('');
  return `${kept}data: ${JSON.stringify(refusal)}\n\n`;
}

/**
 * Whether a chunk written to an event stream is nothing but whole events each carrying a JSON-RPC notification.
 * Anything else (a response, a request, a comment, a priming event, a piece of an event) is written.
 */
export function holdsOnlyNotifications(chunk: unknown): boolean {
  return wholeEventsOf(chunk)?.every((event) => isJsonRpcNotification(event.message)) === true;
}
