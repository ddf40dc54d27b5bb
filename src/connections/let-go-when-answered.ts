/**
 * How the wrapper that follows the host's requests in flight on a remote transport (call-streams.ts) learns that an
 * answer reached the client: from the handler the client library sets on the transport, which it wraps.
 */
import type { Transport } from '@modelcontextprotocol/client';

type Id = string | number;

/**
 * Calls `answered` with the id of each answer `transport` hands to its handler, before the handler gets it. The
 * client (and anyone after it) sets its handler; the transport calls whatever is set. Each handler set is wrapped
 * once, so one wrapping another lets the id go twice, which is harmless. Whoever wrapped the transport before keeps
 * wrapping each handler set.
 */
export function letGoWhenAnswered(transport: Transport, answered: (id: Id) => void): void {
  const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  const inner = () => (previous?.get ? previous.get.call(transport) : undefined);
  let receive = wrapReceive(transport.onmessage, answered);
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => receive,
    set: (handler: Transport['onmessage']) => {
      previous?.set?.call(transport, handler);
      receive = wrapReceive(previous?.set ? inner() : handler, answered);
    },
  });
}

function wrapReceive(handler: Transport['onmessage'], answered: (id: Id) => void): Transport['onmessage'] | undefined {
  if (handler === undefined) return undefined;
  return (message, extra) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) answered(message.id);
    handler(message, extra);
  };
}
