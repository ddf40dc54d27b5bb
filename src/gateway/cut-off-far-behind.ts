/**
 * A client that stops reading its event stream must not make the gateway keep everything sent to it meanwhile. The
 * SDK's adapters write a response only as fast as the client reads it and keep the rest queued inside the SDK, where
 * no bound reaches it. Here every write is taken at once, and a response with more than
 * {@link MAX_WAITING_RESPONSE_BYTES} still waiting when the next write comes is cut off: the client reconnects and
 * resumes from the session's event store (a GET stream) or listens again. A single large message passes, since only
 * what waits before a write counts. A stream that carries the answer to a request is not cut off but has its
 * notifications dropped (drop-notifications-far-behind.ts).
 */
import type { ServerResponse } from 'node:http';

export const MAX_WAITING_RESPONSE_BYTES = 4 * 1024 * 1024;

export function cutOffWhenFarBehind(
  response: ServerResponse,
  onCutOff: () => void,
  maxWaiting = MAX_WAITING_RESPONSE_BYTES,
): void {
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  response.write = ((...args: unknown[]): boolean => {
    if (response.destroyed) return false;
    if (response.writableLength > maxWaiting) {
      response.destroy();
      onCutOff();
      return false;
    }
    write(...args);
    return true;
  }) as ServerResponse['write'];
}
