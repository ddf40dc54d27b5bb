/**
 * Bounds on the connections one of the host's own HTTP listeners (the gateway, the web UI, its sandbox, the OAuth
 * redirect listener) holds for clients it does not know yet. Without them a client sending its headers, or nothing, a
 * byte at a time kept a socket open for a minute or more, and any number of such clients could do so at once.
 *
 * A connection is unadmitted from its opening until the listener admits it: the gateway once a request on it has
 * authenticated, the others once a request's headers have arrived. Unadmitted connections are capped, the oldest
 * dropped for each one past the cap (of those waiting for headers, while any is): refusing the newest instead would let whoever holds the cap keep everyone else
 * out, where a legitimate client is admitted within milliseconds of connecting, long before a flood could push it
 * out. While it waits for headers (from its opening, and again after each answer) an unadmitted connection has
 * `headersTimeoutMs` to send them, then is closed; an admitted one has Node's own checks of the same bounds.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface InboundConnectionBounds {
  /** Unadmitted connections held at once; past it the oldest of them is closed. */
  maxUnadmitted: number;
  /** How long a request's headers may take to arrive (for an unadmitted connection, also while it sits idle). */
  headersTimeoutMs: number;
  /**
   * How long receiving a whole request, headers and body, may take. Node stops counting once the request has
   * arrived, so an event stream (a GET, or a POST answered as a stream) lasts as long as its answer does.
   */
  requestTimeoutMs: number;
  /** How long an admitted connection stays open idle between requests. */
  keepAliveTimeoutMs: number;
}

/** How often Node checks the header and request timeouts: its default, 30 s, let either run half a minute over. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Options for `createServer`: one that can only be given there. */
export const BOUNDED_SERVER_OPTIONS: ServerOptions = { connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS };

export interface InboundConnections {
  /** The connection has proven itself (an authenticated request): it no longer counts against the cap. */
  admit(socket: Socket): void;
}

export function boundInboundConnections(
  server: Server,
  bounds: InboundConnectionBounds,
  /** Admit a connection once a request's headers have arrived, rather than when the listener says so. */
  admitOnHeaders = false,
): InboundConnections {
  server.headersTimeout = bounds.headersTimeoutMs;
  server.requestTimeout = bounds.requestTimeoutMs;
  server.keepAliveTimeout = bounds.keepAliveTimeoutMs;
  /** In the order they opened; the timer runs while the connection waits for a request's headers. */
  const unadmitted = new Map<Socket, NodeJS.Timeout | undefined>();
  /** The answer being made to an unadmitted connection's request, which says how long it will be kept idle. */
  const answering = new Map<Socket, ServerResponse>();
  /**
   * Node's own `Keep-Alive: timeout=` is the admitted connections' idle time; a connection answered unadmitted (a
   * 401) is kept only `headersTimeoutMs` for its next request, and a client trusting the longer time would reuse a
   * closed connection and fail its request.
   */
  const unadmittedKeepAlive = `timeout=${Math.floor(bounds.headersTimeoutMs / 1_000)}`;

  const forget = (socket: Socket): void => {
    clearTimeout(unadmitted.get(socket));
    unadmitted.delete(socket);
    const response = answering.get(socket);
    answering.delete(socket);
    // Admitted while being answered: Node's header, for the admitted connection's idle time, is true again.
    if (response !== undefined && !response.headersSent) response.removeHeader('Keep-Alive');
  };
  const awaitHeaders = (socket: Socket): void => {
    clearTimeout(unadmitted.get(socket));
    const timer = setTimeout(() => socket.destroy(), bounds.headersTimeoutMs);
    timer.unref();
    // Setting an existing key keeps its place: age counts from the opening.
    unadmitted.set(socket, timer);
  };

  /**
   * The oldest connection still waiting for headers, other than the one just opened: one whose request has come and
   * is being authenticated is most likely a client's (a token checked against the issuer's keys can take a while),
   * and goes only when no other can. Failing that, the oldest of all, never the newest, as above.
   */
  const oldestToPushOut = (newest: Socket): Socket => {
    for (const [socket, timer] of unadmitted) if (timer !== undefined && socket !== newest) return socket;
    return unadmitted.keys().next().value as Socket;
  };

  server.on('connection', (socket: Socket) => {
    awaitHeaders(socket);
    socket.once('close', () => forget(socket));
    if (unadmitted.size > bounds.maxUnadmitted) {
      const pushedOut = oldestToPushOut(socket);
      forget(pushedOut);
      pushedOut.destroy();
    }
  });
  // Before the listener's own handler, which may answer at once (`/health`, a 403): a header set after that throws.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    if (!unadmitted.has(socket)) return;
    if (admitOnHeaders) return forget(socket);
    clearTimeout(unadmitted.get(socket));
    unadmitted.set(socket, undefined);
    answering.set(socket, response);
    response.setHeader('Keep-Alive', unadmittedKeepAlive);
    // Answered without being admitted: the next request's headers are due in time again, and what is left of this
    // request's body (which Node reads and drops) must come within that time too.
    response.once('close', () => {
      if (answering.get(socket) === response) answering.delete(socket);
      if (unadmitted.has(socket) && !socket.destroyed) awaitHeaders(socket);
    });
  });
  return { admit: forget };
}
