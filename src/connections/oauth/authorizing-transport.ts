/**
 * A remote transport that survives the server asking for (more) authorization mid-session. When a request fails
 * with `UnauthorizedError` because it started an interactive authorization — a 401 on a later request, or a 403
 * `insufficient_scope` step-up — the request is sent once more after the user finished, with the new token.
 *
 * Re-sending is safe because the server refused the request before handling it. It is not re-sent when the
 * caller gave up on it meanwhile (timeout or cancel, seen as `notifications/cancelled`), when the transport was
 * closed, or a second time. The handshake is not handled here: the connect path waits outside its own timeout.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { AuthorizationSession } from './authorization-session.js';

/** Cancelled request ids remembered at most; only requests waiting for an authorization need theirs. */
const MAX_REMEMBERED_CANCELLATIONS = 256;

type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

/**
 * Sent during connect (`server/discover` is the 2026-07-28 revision's); a failure there is handled by reconnecting
 * after the authorization, so re-sending it here too would authorize once more than asked.
 */
const HANDSHAKE_METHODS = new Set(['initialize', 'notifications/initialized', 'server/discover']);

export function wrapAuthorizingTransport<T extends Transport>(transport: T, session: AuthorizationSession): T {
  const abandoned = new Set<string | number>();
  let closed = false;
  const originalSend = transport.send.bind(transport) as Send;
  const originalClose = transport.close.bind(transport);

  const send: Send = async (message, options) => {
    const method = 'method' in message ? message.method : undefined;
    const id = 'id' in message && method !== undefined ? message.id : undefined;
    if (method === 'notifications/cancelled') {
      const requestId = (message as { params?: { requestId?: string | number } }).params?.requestId;
      // Cancellations of requests that already went through are never looked up; keep the set small anyway.
      if (abandoned.size >= MAX_REMEMBERED_CANCELLATIONS) abandoned.clear();
      if (requestId !== undefined) abandoned.add(requestId);
    }
    const generation = session.generation;
    try {
      await originalSend(message, options);
    } catch (error) {
      if (method === undefined || HANDSHAKE_METHODS.has(method)) throw error;
      if (!(await session.recover(error, generation))) throw error;
      if (closed || (id !== undefined && abandoned.has(id)) || options?.requestSignal?.aborted) throw error;
      await originalSend(message, options);
    } finally {
      if (id !== undefined) abandoned.delete(id);
    }
  };

  const close = async (): Promise<void> => {
    closed = true;
    await originalClose();
  };

  // What reading `send` and `close` gives. A wrapper put on later (the one keeping `__proto__` keys of answers,
  // after connect) replaces these, so it runs first and then goes through the re-sending above; set on the inner
  // transport instead, it would never run.
  let outerSend: Send = send;
  let outerClose = close;
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send') return outerSend;
      if (property === 'close') return outerClose;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      if (property === 'send') outerSend = value as Send;
      else if (property === 'close') outerClose = value as typeof close;
      else return Reflect.set(target, property, value, target);
      return true;
    },
  });
}
