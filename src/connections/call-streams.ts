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
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** The call being made, as its caller named it. */
const callsMade = new AsyncLocalStorage<object>();

/** The call whose response stream is being read, and the server it was made to. */
const streamsRead = new AsyncLocalStorage<{ server: string; call: object } | undefined>();

/** Runs `work`, whose calls to servers are made for `call`. */
export function asCallOf<T>(call: object, work: () => T): T {
  return callsMade.run(call, work);
}

/** The call whose own response stream from `server` the message being handled came on, if any. */
export function callOfStream(server: string): object | undefined {
  const read = streamsRead.getStore();
  return read?.server === server ? read.call : undefined;
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
 * reads is said to belong to a call, whatever context it was started in.
 */
export function linkCallStreams<T extends Transport>(transport: T, server: string, linked: boolean): T {
  const start = transport.start.bind(transport);
  transport.start = () => streamsRead.run(undefined, start);
  if (!linked) return transport;
  const send = transport.send.bind(transport);
  // Every send names its stream's call or none: one made while handling a message read from a call's stream (a
  // listing after a change it announced, say) would otherwise have its own stream read as that call's.
  transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
    const call = isCall(message) ? callsMade.getStore() : undefined;
    return streamsRead.run(call === undefined ? undefined : { server, call }, () => send(message, options));
  };
  return transport;
}
