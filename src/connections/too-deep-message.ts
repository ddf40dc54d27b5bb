/**
 * A message from a server nested deeper than `MAX_JSON_DEPTH` never reaches the MCP client: the SDK validates
 * results with recursive schemas and would overflow the stack (a `tools/list` whose schema nests 10,000 levels
 * fails that way), and everything above walks results again. An answer to a request the host waits for becomes an
 * error answer for the same request, so the one call fails and says why; an answer nobody waits for, and a
 * notification, are dropped; a request from the server is refused back to it.
 */
import { INVALID_REQUEST, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { describeTooDeep, exceedsJsonDepth, MAX_JSON_DEPTH } from '../json/json-depth.js';
import { namedId, quoted } from './invalid-answer.js';

type TooDeepVerdict =
  | { kind: 'fine' }
  /** Deliver this error answer in place of the server's answer; `words`: what it means, in the host's words. */
  | { kind: 'answer-replaced'; replacement: JSONRPCMessage; what: string; words: string }
  /** Send this error back to the server for its request. */
  | { kind: 'request-refused'; reply: JSONRPCMessage; what: string }
  /** A notification: there is no one to tell. */
  | { kind: 'dropped'; what: string }
  /** An answer to request `id`, which nobody waits for: a stray (see stray-answers.ts), dropped. */
  | { kind: 'stray'; id: string | number };

/**
 * `answering`: the method of the host's pending request with this message's id, or undefined when it waits for none.
 * `tooDeep`: already known (the line was read with its too-deep parts cut); measured when not given.
 */
export function screenMessageDepth(
  message: JSONRPCMessage,
  answering: (id: string | number) => string | undefined,
  tooDeep = exceedsJsonDepth(message),
): TooDeepVerdict {
  if (!tooDeep) return { kind: 'fine' };
  const fields = message as { id?: string | number; method?: unknown };
  const method = typeof fields.method === 'string' ? fields.method.slice(0, 100) : undefined;
  if (method === undefined && fields.id !== undefined) {
    const request = answering(fields.id);
    if (request !== undefined) return { kind: 'answer-replaced', ...tooDeepAnswer(fields.id, request) };
    return { kind: 'stray', id: fields.id };
  }
  if (fields.id !== undefined) {
    const what = describeTooDeep(`the server's request ${quoted(method ?? '')}`);
    return {
      kind: 'request-refused',
      what,
      reply: { jsonrpc: '2.0', id: fields.id, error: { code: INVALID_REQUEST, message: `${what}; refused` } },
    };
  }
  return { kind: 'dropped', what: describeTooDeep(`the notification ${quoted(method ?? '')}`) };
}

/**
 * The error answer that stands in for a server's answer nested too deep (from a stdio line, an HTTP body or an
 * event), and what it says. `request`: the method of the host's request with that id, when known. `words`: what
 * happened, in the host's words, to follow the server's name where the request's failure is told (the answer itself
 * is the host's, not the server's: see host-written-answers.ts).
 */
export function tooDeepAnswer(
  id: string | number,
  request: string | undefined,
): { what: string; replacement: JSONRPCMessage; words: string } {
  const what = describeTooDeep(`the server's answer to ${request ?? `request ${namedId(id)}`}`);
  return {
    what,
    replacement: { jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: `${what}, so the host refused it` } },
    words: `sent an answer nested deeper than ${MAX_JSON_DEPTH} levels; the host refused it`,
  };
}
