/**
 * The requests the host has in flight on one connection, by id: each one's method and, for a call, the name its
 * caller made it in (see call-being-made.ts). Learnt from what the MCP client sends: through the one wrapper a remote
 * transport wears (see call-streams.ts), or told by the stdio transport, which reads its own lines.
 *
 * The method is for reading answers: one that is not valid JSON-RPC or nested too deep fails the request it names
 * only while that request awaits its answer (see limit-response-size.ts); any other is a stray (see
 * stray-answers.ts). An answer read (`delete`) is awaited no more. The name is for telling which call a server's
 * request came with (see call-streams.ts): it stays until the answer is handed to the client (`handedOn`), as the
 * call is in flight for the client until then.
 *
 * A request is let go whole once its answer is handed to the client (the host's error answer in place of an
 * invalid one included), once it is given up on (see given-up-requests.ts), or once sending it failed; all are let go
 * when the connection closes. So nothing piles up but what the client library itself holds a handler and a timer for.
 */
import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/client';
import { callBeingMade } from './call-being-made.js';
import { forgetWhenGivenUp } from './given-up-requests.js';

type Id = string | number;

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

/** The name of a call made in none. */
const UNNAMED = Object.freeze({});

interface InFlight {
  /** Undefined once its answer has been read. */
  method: string | undefined;
  /** A call's name (`UNNAMED` when made in none); undefined for a request that is no call. */
  call: object | undefined;
}

export class PendingRequests {
  private readonly requests = new Map<Id, InFlight>();
  /** The connection is closing: no call is in flight any more, though answers read meanwhile are still screened. */
  private callsEnded = false;
  private readonly letGo = (id: Id): void => {
    this.requests.delete(id);
  };

  /** The method of the request `id` while it awaits its answer, or undefined when nothing waits for that id. */
  get(id: Id): string | undefined {
    return this.requests.get(id)?.method;
  }

  /** The answer to `id` has been read: it is awaited no more. False when it was not awaited. */
  delete(id: Id): boolean {
    const request = this.requests.get(id);
    if (request?.method === undefined) return false;
    if (request.call === undefined) this.requests.delete(id);
    else request.method = undefined;
    return true;
  }

  /** The answer to `id` (the server's, or the host's in its place) has been handed to the client: it is let go. */
  handedOn(id: Id): void {
    this.requests.delete(id);
  }

  /** Sending `id` failed: no answer will come for it. */
  unsent(id: Id): void {
    this.requests.delete(id);
  }

  /** Notes a request sent, or a cancellation; the request's id when `message` is a request. */
  sent(message: JSONRPCMessage, options?: TransportSendOptions): Id | undefined {
    forgetWhenGivenUp(message, options, this.letGo);
    if (!('method' in message) || !('id' in message)) return undefined;
    const call = CALL_METHODS.has(message.method) ? (callBeingMade() ?? UNNAMED) : undefined;
    this.requests.set(message.id, { method: message.method.slice(0, 100), call });
    return message.id;
  }

  /** The name the request `id` was made in, if it is a call in flight made in one. */
  callOf(id: Id): object | undefined {
    const call = this.requests.get(id)?.call;
    return call === UNNAMED ? undefined : call;
  }

  /**
   * The one name every call in flight was made in; nothing when none is in flight, one was made in no name, or
   * calls of several names are.
   */
  onlyCallName(): object | undefined {
    if (this.callsEnded) return undefined;
    let only: object | undefined;
    for (const { call } of this.requests.values()) {
      if (call === undefined) continue;
      if (call === UNNAMED || (only !== undefined && only !== call)) return undefined;
      only = call;
    }
    return only;
  }

  /** The connection is closing: no call is in flight from now on. */
  endCalls(): void {
    this.callsEnded = true;
  }

  /** Lets every request go: the connection is closed. */
  clear(): void {
    this.requests.clear();
  }
}
