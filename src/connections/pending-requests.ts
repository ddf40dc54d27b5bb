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
import { letGoWhenAnswered } from './let-go-when-answered.js';

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
    letGoWhenAnswered(transport, (id) => this.methods.delete(id));
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
