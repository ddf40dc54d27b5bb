/**
 * A POST answered as an event stream carries the answer to the client's request, and cutting it off would lose that
 * answer: a stateless gateway keeps no event store to resume it from, and a session's store is bounded, so the
 * client's last event may be gone by the time it resumes. So, as the stdio gateway does, a client that falls more
 * than {@link MAX_WAITING_RESPONSE_BYTES} behind reading such a stream has notifications to it (progress, log
 * messages) dropped until it has read some, while responses and the gateway's requests to it are always written.
 * What can wait is then bounded by what the request's answer and questions take, not by what its tool reports.
 * Every write is taken at once, as in cut-off-far-behind.ts, so nothing queues unbounded inside the SDK.
 */
import type { ServerResponse } from 'node:http';
import { MAX_WAITING_RESPONSE_BYTES } from './cut-off-far-behind.js';

export function dropNotificationsWhenFarBehind(
  response: ServerResponse,
  onFirstDrop: () => void,
  maxWaiting = MAX_WAITING_RESPONSE_BYTES,
): void {
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  let dropped = false;
  response.write = ((...args: unknown[]): boolean => {
    if (response.destroyed) return false;
    // Only while far behind is a chunk looked into: a client that keeps up costs no parsing.
    if (response.writableLength > maxWaiting && holdsOnlyNotifications(args[0])) {
      if (!dropped) {
        dropped = true;
        onFirstDrop();
      }
      // Taken, as far as the writer knows: the SDK then neither waits for 'drain' nor keeps it.
      const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      if (callback !== undefined) queueMicrotask(callback);
      return true;
    }
    write(...args);
    return true;
  }) as ServerResponse['write'];
}

/**
 * Whether a chunk written to an event stream is nothing but whole events each carrying a JSON-RPC notification.
 * Anything else (a response, a request, a comment, a priming event, a piece of an event) is written.
 */
export function holdsOnlyNotifications(chunk: unknown): boolean {
  const text =
    typeof chunk === 'string'
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8')
        : undefined;
  if (text === undefined || !text.endsWith('\n\n')) return false;
  const events = text.split('\n\n').filter((event) => event.trim() !== '');
  return events.length > 0 && events.every(isNotificationEvent);
}

function isNotificationEvent(event: string): boolean {
  const data = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).replace(/^ /, ''))
    .join('\n');
  if (data === '') return false;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return false;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  return typeof (message as { method?: unknown }).method === 'string' && !('id' in message);
}
