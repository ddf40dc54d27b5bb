/**
 * How a request the MCP client gives up on shows in what it sends: `notifications/cancelled` naming it (a call that
 * times out or is given up on sends one), or on a 2026-era connection the abort of the request's own stream. Those who
 * follow the host's requests in flight let such an id go, as they do once its answer comes, its sending fails or the
 * transport closes; so nothing piles up but what the client library itself holds a handler and a timer for.
 */
import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/client';

type Id = string | number;

/** Calls `forget` with the id of each request `message` gives up on, now or once its stream is aborted. */
export function forgetWhenGivenUp(
  message: JSONRPCMessage,
  options: TransportSendOptions | undefined,
  forget: (id: Id) => void,
): void {
  if (!('method' in message)) return;
  if (!('id' in message)) {
    if (message.method !== 'notifications/cancelled') return;
    const requestId = (message.params as { requestId?: Id } | undefined)?.requestId;
    if (requestId !== undefined) forget(requestId);
    return;
  }
  const id = message.id;
  options?.requestSignal?.addEventListener('abort', () => forget(id), { once: true });
}
