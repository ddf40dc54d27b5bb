/**
 * Keeps the `__proto__` keys of the answers a server sent to `tools/list`, `tools/call`, `prompts/get` and
 * `resources/read` (in a listed tool's schemas, a call's `structuredContent` and `_meta`, a prompt's messages, a
 * resource's contents, any map of them), which the MCP client library's result checks would drop: the answers to the
 * host's requests of those methods are renamed on their way in (see escape-prototype-keys.ts), and each caller names
 * them back with `namedBack` once the library has checked the result. Only those answers: nothing else the host reads
 * from a server is named back. The library keeps the renamed listing for its own check of a call's
 * `structuredContent`, whose validator names the `outputSchema` back (see output-schema-validator.ts). Each answer
 * that held a renamed key is noted in the transport's `RenamedAnswers`, so that a call whose answer held none is not
 * walked again, for its check or its caller (see renamed-answers.ts). Put on a transport after the client has
 * connected to it. A request is followed until its answer comes, it is given up on (see given-up-requests.ts) or its
 * sending fails, however many are in flight.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { escapeParsedPrototypeKeys, unescapePrototypeKeys } from '../json/escape-prototype-keys.js';
import { restoreOwnKeys } from '../json/own-property.js';
import { forgetWhenGivenUp } from './given-up-requests.js';
import { isPlainTextCallResult } from './plain-call-result.js';
import type { RenamedAnswers } from './renamed-answers.js';

/** The requests whose answers are renamed; every place that sends one names its answer back. */
const KEPT_METHODS = new Set(['tools/list', 'tools/call', 'prompts/get', 'resources/read']);

/** Who else hears every message received (before its renaming), through this one wrapper. */
export interface TrafficObserver {
  /** `answersCall`: whether it is the answer to a `tools/call` of the host's in flight, which it no longer is. */
  noteReceived(message: JSONRPCMessage, answersCall: boolean): void;
}

export function keepPrototypeKeysOfAnswers(
  transport: Transport,
  renamed: RenamedAnswers,
  observer?: TrafficObserver,
): void {
  // The method of each request of those methods in flight, by id: kept once for the renaming and the observer.
  const pendingRequests = new Map<string | number, string>();
  const send = transport.send.bind(transport);
  const forget = (id: string | number) => pendingRequests.delete(id);
  transport.send = (message, options) => {
    if (!('method' in message)) return send(message, options);
    if (!('id' in message)) {
      forgetWhenGivenUp(message, options, forget);
      return send(message, options);
    }
    const id = message.id;
    if (KEPT_METHODS.has(message.method)) {
      pendingRequests.set(id, message.method);
      forgetWhenGivenUp(message, options, forget);
    }
    return send(message, options).catch((error: unknown) => {
      forget(id);
      throw error;
    });
  };
  const receive = transport.onmessage;
  if (receive === undefined) return;
  transport.onmessage = (message, extra) => {
    const method = answeredMethod(message, pendingRequests);
    observer?.noteReceived(message, method === 'tools/call');
    if (method === undefined || !('result' in message)) return receive(message, extra);
    const escaped = escapeResult(message);
    if (escaped !== message) renamed.note();
    receive(escaped, extra);
  };
}

/** The method of the request in flight `message` answers, which is in flight no more; undefined if none. */
function answeredMethod(message: JSONRPCMessage, pendingRequests: Map<string | number, string>): string | undefined {
  if ('method' in message || !('id' in message) || message.id === undefined) return undefined;
  const method = pendingRequests.get(message.id);
  if (method !== undefined) pendingRequests.delete(message.id);
  return method;
}

function escapeResult(message: JSONRPCMessage): JSONRPCMessage {
  const answer = message as JSONRPCMessage & { result: unknown };
  // The common text-only call result has no map a `__proto__` key could be in: nothing to walk (per call, on the
  // host's hot path). Its caller skips the naming back for the same reason.
  if (isPlainTextCallResult(answer.result)) return message;
  // The transport's message check has already made prototypes of the `__proto__` keys of the result and of its
  // `_meta`; they are keys again and renamed, in the one walk.
  const result = escapeParsedPrototypeKeys(answer.result);
  return result === answer.result ? message : ({ ...answer, result } as JSONRPCMessage);
}

/**
 * An answer of one of those requests as the library handed it back, its renamed keys named back and its own
 * `__proto__` keys data keys again: what each caller of the three methods gives on.
 */
export function namedBack<Answer>(answer: Answer): Answer {
  return restoreOwnKeys(unescapePrototypeKeys(answer));
}
