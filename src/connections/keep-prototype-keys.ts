/**
 * Keeps the `__proto__` keys of a `tools/call` result a server sent (in `structuredContent`, `_meta` and any other
 * map of it), which the MCP client library's result check would drop: the answers to the host's `tools/call`
 * requests are renamed on their way in (see escape-prototype-keys.ts), and the caller names them back with
 * `unescapePrototypeKeys` once the library has checked the result. Only those answers: nothing else the host
 * reads from a server is named back. Put on a transport after the client has connected to it.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { escapePrototypeKeys } from '../json/escape-prototype-keys.js';

/** Calls not answered (cancelled, timed out) must not pile up: the oldest ids are let go past this many. */
const MAX_PENDING_CALLS = 10_000;

export function keepPrototypeKeysOfCallResults(transport: Transport): void {
  const pendingCalls = new Set<string | number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      pendingCalls.add(message.id);
      if (pendingCalls.size > MAX_PENDING_CALLS) pendingCalls.delete(pendingCalls.values().next().value!);
    }
    return send(message, options);
  };
  const receive = transport.onmessage;
  if (receive === undefined) return;
  transport.onmessage = (message, extra) => {
    receive(answersCall(message, pendingCalls) ? escapeResult(message) : message, extra);
  };
}

function answersCall(message: JSONRPCMessage, pendingCalls: Set<string | number>): boolean {
  if ('method' in message || !('id' in message) || message.id === undefined) return false;
  return pendingCalls.delete(message.id) && 'result' in message;
}

function escapeResult(message: JSONRPCMessage): JSONRPCMessage {
  const answer = message as JSONRPCMessage & { result: unknown };
  const result = escapePrototypeKeys(answer.result);
  return result === answer.result ? message : ({ ...answer, result } as JSONRPCMessage);
}
