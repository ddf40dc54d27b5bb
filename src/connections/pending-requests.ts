/**
 * The requests the host has in flight on one connection, with their methods by id, learnt from what the MCP client
 * sends and is handed through the transport (`watch`), or told by a transport that reads its own lines (the stdio
 * one). An answer that is not valid JSON-RPC or nested too deep fails the request it names only if that request is
 * here (see limit-response-size.ts); any other is a stray (see stray-answers.ts).
 *
 * An id is let go once its answer reaches the client (the host's error answer in place of an invalid one included),
 * once it is given up on (see given-up-requests.ts), or once sending it failed; all are let go when the transport
 * closes. So nothing piles up but what the client library itself holds a handler and a timer for.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { forgetWhenGivenUp } from './given-up-requests.js';

type Id = string | number;

export class PendingRequests {
  private readonly methods = new Map<Id, string>();

  get size(): number {
    return this.methods.size;
  }

  /** The method of the pending request `id`, or undefined when nothing waits for that id. */
  get(id: Id): string | undefined {
    return this.methods.get(id);
  }

  /** Lets `id` go: its answer has come. */
  delete(id: Id): boolean {
    return this.methods.delete(id);
  }

  /**
   * Makes `transport` tell this what is sent and handed on through it; returns it. Put on before the client
   * connects, so that the answer to `initialize` counts too.
   */
  watch<T extends Transport>(transport: T): T {
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
      const id = this.sent(message, options);
      try {
        await send(message, options);
      } catch (error) {
        if (id !== undefined) this.methods.delete(id);
        throw error;
      }
    };
    const close = transport.close.bind(transport);
    transport.close = async () => {
      this.clear();
      await close();
    };
    // The client (and anyone after it) sets its handler; the transport calls whatever is set. Each handler set is
    // wrapped once, so one wrapping another lets the id go twice, which is harmless.
    // Whoever wrapped the transport before (call-streams.ts) keeps wrapping each handler set.
    const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
    const inner = () => (previous?.get ? previous.get.call(transport) : undefined);
    let receive = wrapReceive(transport.onmessage, (id) => this.methods.delete(id));
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => receive,
      set: (handler: Transport['onmessage']) => {
        previous?.set?.call(transport, handler);
        receive = wrapReceive(previous?.set ? inner() : handler, (id) => this.methods.delete(id));
      },
    });
    return transport;
  }

  /** Lets every request go: the connection is closed. */
  clear(): void {
    this.methods.clear();
  }

  /** Notes a request sent, or a cancellation; the request's id when `message` is a request. */
  sent(message: JSONRPCMessage, options?: TransportSendOptions): Id | undefined {
    forgetWhenGivenUp(message, options, (id) => this.methods.delete(id));
    if (!('method' in message) || !('id' in message)) return undefined;
    this.methods.set(message.id, message.method.slice(0, 100));
    return message.id;
  }
}

function wrapReceive(handler: Transport['onmessage'], answered: (id: Id) => void): Transport['onmessage'] | undefined {
  if (handler === undefined) return undefined;
  return (message, extra) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) answered(message.id);
    handler(message, extra);
  };
}
