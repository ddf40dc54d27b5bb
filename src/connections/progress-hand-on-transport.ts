/**
 * What a remote server sends handed to the client library through a `ProgressHandOn` (see progress-hand-on.ts), as
 * the stdio transport hands on the lines it reads: of the progress notifications read together only the latest of
 * each call, and a call's answer only after the progress read before it. The events of one read of an event stream
 * reach the transport's handler one after another before the next read, so they count as read together.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { ProgressHandOn } from './progress-hand-on.js';

/** Makes `transport` hand what it reads to its handler through a `ProgressHandOn`; returns it. */
export function handProgressOnLatest<T extends Transport>(transport: T, onFlood: () => void): T {
  // Whoever wrapped the transport before (call-streams.ts) keeps wrapping each handler set.
  const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  let handler = transport.onmessage;
  const inner = (): Transport['onmessage'] => (previous?.get ? previous.get.call(transport) : handler);
  let delivering = false;
  const handOn = new ProgressHandOn((message: JSONRPCMessage) => {
    delivering = true;
    try {
      inner()?.(message);
    } finally {
      delivering = false;
    }
  }, onFlood);
  // The client library reads the handler it replaces and calls it from the new one: read so, it is the handler as
  // it was, called directly while a message is being handed on; called by the transport, it hands the message on.
  let outer: { of: Transport['onmessage']; is: Transport['onmessage'] } | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => {
      const of = inner();
      if (of === undefined) return undefined;
      if (outer?.of !== of) {
        outer = {
          of,
          is: (message, extra) => (delivering ? of(message, extra) : handOn.handOn(message)),
        };
      }
      return outer.is;
    },
    set: (next: Transport['onmessage']) => {
      handler = next;
      previous?.set?.call(transport, next);
    },
  });
  return transport;
}
