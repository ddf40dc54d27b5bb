/**
 * Which call a server's request or notification belongs to, where the transport can tell. Over Streamable HTTP a
 * server sends what belongs to a request of ours on that request's own response stream; over stdio, legacy SSE and
 * the standing GET stream nothing in a message links it to a call.
 *
 * The caller names its call (`asCallOf`) around the work that makes it. `linkCallStreams` has a transport send each
 * request of a call (`tools/call`, `prompts/get`, `resources/read`, `completion/complete`) in that name and everything
 * else, and its start, in none: the client library reads a response stream in the context of the send that opened
 * it, so a handler of a server's message asks `callOfStream(server)` and is told the call whose stream the message
 * came on, or nothing. Nothing is the safe answer: a wrong one would
 * hand one client's question to another.
 *
 * Every transport also keeps the calls it has in flight, each with the name it was made in (or none): a handler asks
 * `callOfRequest(server)` for the call a server's request came with, which is the call of its stream, or else the one
 * name all the calls in flight to that server were made in (a stdio server asks during a call, and nothing else is
 * being asked of it). Calls of several names, or one made in none, answer nothing.
 *
 * A transport starts, and reads what is not on a call's own stream, in no caller's context: a stdio server reads in
 * the context it was spawned in, so one started again during a chat turn's call would otherwise hand everything it
 * sends later (a change of its tools, say) to handlers that take that turn's context for their own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { forgetWhenGivenUp } from './given-up-requests.js';
import { letGoWhenAnswered } from './let-go-when-answered.js';

/** The call being made, as its caller named it. */
const callsMade = new AsyncLocalStorage<object>();

/** The calls in flight on one transport, by request id: the name each was made in, or `UNNAMED`. */
type CallsInFlight = Map<string | number, object>;
const UNNAMED = Object.freeze({});

/**
 * What a message is read in: the server, the calls in flight on its transport, and the call whose response stream
 * it is, if it is one's.
 */
const streamsRead = new AsyncLocalStorage<{ server: string; inFlight: CallsInFlight; call?: object }>();

/**
 * The context this module was loaded in: no call's, since none can be named before it loads, and no one's who
 * started a transport.
 */
const noCaller = AsyncLocalStorage.snapshot();

/** Runs `work`, whose calls to servers are made for `call`. */
export function asCallOf<T>(call: object, work: () => T): T {
  return callsMade.run(call, work);
}

/**
 * The call the code running now makes its requests for, as its caller named it (`asCallOf`): whose question a
 * consent asked about that call, or a refusal of it, is.
 */
export function callBeingMade(): object | undefined {
  return callsMade.getStore();
}

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
  if (read.call !== undefined) return read.call;
  const names = new Set(read.inFlight.values());
  const [only] = names;
  return names.size === 1 && only !== UNNAMED ? only : undefined;
}

/**
 * The requests a caller makes in its call's name: a client's tool call, prompt, resource read or completion, during
 * any of which a server may ask or log. Others (a listing after a change a server announced, say) are the host's own.
 */
const CALL_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
  'completion/complete',
]);

function isCall(message: JSONRPCMessage): boolean {
  return 'method' in message && CALL_METHODS.has(message.method) && 'id' in message;
}

/**
 * Put on the transport itself, before any other wrapper and before the client connects. `linked`: whether the
 * transport reads a request's response stream in the context of its send (Streamable HTTP); otherwise nothing it
 * reads is said to be on a call's stream, whatever context it was started in.
 */
export function linkCallStreams<T extends Transport>(transport: T, server: string, linked: boolean): T {
  const inFlight: CallsInFlight = new Map();
  // What everything but a named call's request is read in, made once: sends are the per-call path.
  const unnamedRead = { server, inFlight };
  const start = transport.start.bind(transport);
  transport.start = () => noCaller(() => streamsRead.run(unnamedRead, start));
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
    const id = isCall(message) && 'id' in message ? message.id : undefined;
    // Only calls are kept, so only a call, or a cancellation, can let one go.
    if (id !== undefined || !('id' in message)) forgetWhenGivenUp(message, options, (id) => inFlight.delete(id));
    const call = id === undefined ? undefined : (callsMade.getStore() ?? UNNAMED);
    if (id !== undefined && call !== undefined) inFlight.set(id, call);
    // An unlinked transport reads nothing in the context of a send, so its sends need none.
    if (!linked) return sendForgettingOnFailure(send, message, options, inFlight, id);
    // Every send names its stream's call or none: one made while handling a message read from a call's stream (a
    // listing after a change it announced, say) would otherwise have its own stream read as that call's. One of no
    // call is read in no caller's context, as the transport's start is.
    if (call === undefined || call === UNNAMED) {
      return noCaller(() =>
        streamsRead.run(unnamedRead, () => sendForgettingOnFailure(send, message, options, inFlight, id)),
      );
    }
    return streamsRead.run({ server, inFlight, call }, () =>
      sendForgettingOnFailure(send, message, options, inFlight, id),
    );
  };
  const close = transport.close.bind(transport);
  transport.close = async () => {
    inFlight.clear();
    await close();
  };
  // The client sets its handler once it connects: a call goes once answered.
  letGoWhenAnswered(transport, (id) => inFlight.delete(id));
  return transport;
}

/** Sends `message`; a call whose sending fails is in flight no more. */
async function sendForgettingOnFailure(
  send: Transport['send'],
  message: JSONRPCMessage,
  options: TransportSendOptions | undefined,
  inFlight: CallsInFlight,
  id: string | number | undefined,
): Promise<void> {
  try {
    await send(message, options);
  } catch (error) {
    if (id !== undefined) inFlight.delete(id);
    throw error;
  }
}
