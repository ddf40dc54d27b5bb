/**
 * Which call a server's request or notification belongs to, where the transport can tell. Over Streamable HTTP a
 * server sends what belongs to a request of ours on that request's own response stream; over stdio, legacy SSE and
 * the standing GET stream nothing in a message links it to a call.
 *
 * The caller names its call (`asCallOf`, call-being-made.ts) around the work that makes it. `linkCallStreams` has a
 * transport send each request of a call (`tools/call`, `prompts/get`, `resources/read`, `completion/complete`) in
 * that name and everything else, and its start, in none: the client library reads a response stream in the context
 * of the send that opened it, so a handler of a server's message asks `callOfStream(server)` and is told the call
 * whose stream the message came on, or nothing. Nothing is the safe answer: a wrong one would hand one client's
 * question to another.
 *
 * Every transport's requests in flight are kept, each call with the name it was made in (see pending-requests.ts): a
 * handler asks `callOfRequest(server)` for the call a server's request came with, which is the call of its stream, or
 * else the one name all the calls in flight to that server were made in (a stdio server asks during a call, and
 * nothing else is being asked of it). Calls of several names, or one made in none, answer nothing.
 *
 * A transport starts, and reads what is not on a call's own stream, in no caller's context: a stdio server reads in
 * the context it was spawned in, so one started again during a chat turn's call would otherwise hand everything it
 * sends later (a change of its tools, say) to handlers that take that turn's context for their own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { letGoWhenAnswered } from './let-go-when-answered.js';
import type { PendingRequests } from './pending-requests.js';

/**
 * What a message is read in: the server, the requests in flight on its transport, and the call whose response stream
 * it is, if it is one's.
 */
const streamsRead = new AsyncLocalStorage<{ server: string; pending: PendingRequests; call?: object }>();

/**
 * The context this module was loaded in: no call's, since none can be named before it loads, and no one's who
 * started a transport.
 */
const noCaller = AsyncLocalStorage.snapshot();

/** The call whose own response stream from `server` the message being handled came on, if any. */
export function callOfStream(server: string): object | undefined {
  const read = streamsRead.getStore();
  return read?.server === server ? read.call : undefined;
}

/**
 * The call a request of `server`'s being handled came with: its stream's, or the one name every call in flight to
 * that server was made in; nothing when that cannot be told.
 */
export function callOfRequest(server: string): object | undefined {
  const read = streamsRead.getStore();
  if (read?.server !== server) return undefined;
  return read.call ?? read.pending.onlyCallName();
}

/**
 * Has a transport that keeps its own requests in flight in `pending` (the stdio one, which reads its own lines)
 * start, and so read, in no caller's context, with `pending` at hand for `callOfRequest`. Put on before the client
 * connects.
 */
export function readInNoCallersContext<T extends Transport>(transport: T, server: string, pending: PendingRequests): T {
  const unnamedRead = { server, pending };
  const start = transport.start.bind(transport);
  transport.start = () => noCaller(() => streamsRead.run(unnamedRead, start));
  return transport;
}

/**
 * The one wrapper of a transport that does not keep its requests in flight itself (the HTTP ones): what it sends,
 * closes and hands to the client is told to `pending`, and, when `linked`, each send is made in its call's name or in
 * none. `linked`: whether the transport reads a request's response stream in the context of its send (Streamable
 * HTTP); otherwise nothing it reads is said to be on a call's stream, whatever context it was started in. Put on the
 * transport itself, before any other wrapper and before the client connects, so that the answer to `initialize`
 * counts too.
 */
export function linkCallStreams<T extends Transport>(
  transport: T,
  server: string,
  pending: PendingRequests,
  linked: boolean,
): T {
  readInNoCallersContext(transport, server, pending);
  // What everything but a named call's request is read in, made once: sends are the per-call path.
  const unnamedRead = { server, pending };
  const send = transport.send.bind(transport);
  const sendForgettingOnFailure = async (
    id: string | number | undefined,
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
  ): Promise<void> => {
    try {
      await send(message, options);
    } catch (error) {
      if (id !== undefined) pending.unsent(id);
      throw error;
    }
  };
  transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
    const id = pending.sent(message, options);
    // An unlinked transport reads nothing in the context of a send, so its sends need none.
    if (!linked) return sendForgettingOnFailure(id, message, options);
    const call = id === undefined ? undefined : pending.callOf(id);
    // Every send names its stream's call or none: one made while handling a message read from a call's stream (a
    // listing after a change it announced, say) would otherwise have its own stream read as that call's. One of no
    // call is read in no caller's context, as the transport's start is.
    if (call === undefined) {
      return noCaller(() => streamsRead.run(unnamedRead, () => sendForgettingOnFailure(id, message, options)));
    }
    return streamsRead.run({ server, pending, call }, () => sendForgettingOnFailure(id, message, options));
  };
  const close = transport.close.bind(transport);
  transport.close = async () => {
    pending.clear();
    await close();
  };
  // The client sets its handler once it connects: a request goes once answered.
  letGoWhenAnswered(transport, (id) => pending.handedOn(id));
  return transport;
}
