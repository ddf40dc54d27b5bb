/**
 * A server's answer to one of the host's requests that is JSON, claims JSON-RPC 2.0 and names the request's id, but
 * is not a valid JSON-RPC response (an error whose code is a string, neither a result nor an error…). The client
 * library would drop it with an error of its own that names no request, and the request would wait for its timeout;
 * the transport puts an error answer of the host's in its place instead, so the one request fails at once and says
 * why (noted as the host's: see host-written-answers.ts).
 */
import { INVALID_REQUEST, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { isPlainObject } from '../json/is-plain-object.js';
import { showInvisibleCharacters } from '../text/invisible-characters.js';

/** The members a JSON-RPC response may have. */
const RESPONSE_KEYS = new Set(['jsonrpc', 'id', 'result', 'error']);
/** How much of a server's text (a member's name, the message itself) the host's words quote. */
const MAX_QUOTED_CHARACTERS = 200;

/**
 * The id `value` answers if it reads as an answer (a JSON object with `"jsonrpc": "2.0"`, a string or integer
 * `id` and no `method`), else undefined. Whether it is a valid one is not looked at.
 */
export function answeredId(value: unknown): string | number | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || 'method' in value) return undefined;
  const id = value.id;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : undefined;
}

/**
 * What makes `answer` not a valid JSON-RPC response, or undefined when it is one: the checks of the client library's
 * response schemas, which a response that passes them is known to pass, so that a message read from HTTP need not be
 * validated twice.
 */
function problemOfAnswer(answer: Record<string, unknown>): string | undefined {
  const extra = Object.keys(answer).find((key) => !RESPONSE_KEYS.has(key));
  if (extra !== undefined) return `it has a member JSON-RPC does not define, ${quoted(extra)}`;
  const hasResult = 'result' in answer;
  const hasError = 'error' in answer;
  if (hasResult && hasError) return 'it has both a result and an error';
  if (!hasResult && !hasError) return 'it has neither a result nor an error';
  if (hasResult) {
    if (!isPlainObject(answer.result)) return `its result is ${kindOf(answer.result)}, not an object`;
    const meta = answer.result._meta;
    if (meta !== undefined && !isPlainObject(meta)) return `its result's _meta is ${kindOf(meta)}, not an object`;
    return undefined;
  }
  const error = answer.error;
  if (!isPlainObject(error)) return `its error is ${kindOf(error)}, not an object`;
  if (typeof error.code !== 'number') return `the error's code is ${kindOf(error.code)}, not a number`;
  if (!Number.isInteger(error.code)) return "the error's code is not an integer";
  if (typeof error.message !== 'string') return `the error's message is ${kindOf(error.message)}, not a string`;
  return undefined;
}

/** The requests an answer may be for: their methods by id, from which an id answered is taken. */
export interface AnswerWaiters {
  get(id: string | number): string | undefined;
  delete(id: string | number): unknown;
}

/**
 * The host's error answer in place of `value` (a message read from HTTP) when it reads as an answer to a request the
 * host waits for (in `waiting`, from which the id answered is taken) but is not a valid one; else undefined, and the
 * message goes on as it is.
 */
export function screenAnswer(value: unknown, waiting: AnswerWaiters): ReturnType<typeof invalidAnswer> | undefined {
  const id = answeredId(value);
  const method = id === undefined ? undefined : waiting.get(id);
  if (id === undefined || method === undefined) return undefined;
  waiting.delete(id);
  const why = problemOfAnswer(value as Record<string, unknown>);
  return why === undefined ? undefined : invalidAnswer(id, method, value as Record<string, unknown>, why);
}

/** The id `value` answers and what makes it not a valid answer, when it reads as an answer that is not valid. */
export function invalidAnswerOf(value: unknown): { id: string | number; why: string } | undefined {
  const id = answeredId(value);
  const why = id === undefined ? undefined : problemOfAnswer(value as Record<string, unknown>);
  return id === undefined || why === undefined ? undefined : { id, why };
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** A request id the server sent, as the host's words name it: a string is quoted (see `quoted`). */
export function namedId(id: string | number): string {
  return typeof id === 'number' ? String(id) : quoted(id);
}

/** `text` in quotes, cut to a bound, with its control and invisible characters written as escapes. */
export function quoted(text: string): string {
  const cut = text.length > MAX_QUOTED_CHARACTERS ? `${text.slice(0, MAX_QUOTED_CHARACTERS)}…` : text;
  return showInvisibleCharacters(JSON.stringify(cut));
}

/**
 * The error answer that stands in for `answer` (from a stdio line, an HTTP body or an event), answering the host's
 * request `method` with that id, and what it says: `what` for a diagnostic, `words` to follow the server's name where
 * the request's failure is told.
 */
export function invalidAnswer(
  id: string | number,
  method: string,
  answer: Record<string, unknown>,
  why = problemOfAnswer(answer) ?? 'it is not a valid JSON-RPC response',
): { what: string; replacement: JSONRPCMessage; words: string } {
  const request = method.slice(0, 100);
  return {
    what: `answered ${request} with a message that is not valid JSON-RPC (${why}); the host refused it`,
    replacement: {
      jsonrpc: '2.0',
      id,
      error: {
        code: INVALID_REQUEST,
        message: `the server's answer to ${request} is not valid JSON-RPC: ${why}, so the host refused it`,
      },
    },
    words: `answered ${request} with a message that is not valid JSON-RPC: ${why}; the host refused it`,
  };
}
