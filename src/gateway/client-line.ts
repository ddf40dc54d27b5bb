/**
 * One line from the gateway's stdio client (or one HTTP body) → a JSON-RPC message, or the error answer JSON-RPC
 * prescribes for one that is not. The SDK's stdio transport drops such lines without a word, so a client that sent a
 * request with a bad id or cut-off JSON waited for an answer that never came, and its HTTP transport calls every one
 * a parse error. Over stdio a notification or an answer that is not well formed has no one to answer to: it is only
 * reported.
 */
import { INVALID_REQUEST, type JSONRPCMessage, PARSE_ERROR, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json/is-plain-object.js';
import { escapeCallArguments } from './keep-prototype-keys-of-arguments.js';

/** A request that is not well formed, and the error answer to it. */
type Refused = { kind: 'refused'; reply: JSONRPCMessage; what: string };
type ClientLine = { kind: 'message'; message: JSONRPCMessage } | Refused | { kind: 'ignored'; what: string };

const MAX_SHOWN_REASON_CHARS = 200;

/** An id the answer may carry: one the client could have sent with a request. */
function answerableId(id: unknown): string | number | null {
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
}

function refusal(id: string | number | null, code: number, what: string): Refused {
  return { kind: 'refused', what, reply: { jsonrpc: '2.0', id, error: { code, message: what } } as JSONRPCMessage };
}

/** The error answer for what is not a message: a refused request's own, else one without an id. */
export function notAMessageReply(read: Exclude<ClientLine, { kind: 'message' }>): JSONRPCMessage {
  return read.kind === 'refused' ? read.reply : refusal(null, INVALID_REQUEST, `Invalid Request: ${read.what}`).reply;
}

export function readClientLine(text: string): ClientLine | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_SHOWN_REASON_CHARS);
    return refusal(null, PARSE_ERROR, `Parse error: the line is not JSON (${reason})`);
  }
  if (Array.isArray(value)) {
    return refusal(
      null,
      INVALID_REQUEST,
      'Invalid Request: batches (JSON arrays) are not accepted; send one message per line',
    );
  }
  return readClientMessage(escapeCallArguments(value));
}

/** A parsed JSON value from the client (a line over stdio, an HTTP body that is not a batch) → a message or why not. */
export function readClientMessage(value: unknown): ClientLine {
  if (!isPlainObject(value)) {
    return refusal(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is a JSON object');
  }
  try {
    return { kind: 'message', message: parseJSONRPCMessage(value) };
  } catch {
    // Not well formed: said below in the terms of what is wrong, not the schema's.
  }
  const { jsonrpc, id, method } = value;
  if (typeof method !== 'string' || !('id' in value)) {
    const what = typeof method === 'string' ? `the notification ${JSON.stringify(method.slice(0, 100))}` : 'an answer';
    return { kind: 'ignored', what: `${what} from the client is not a well-formed JSON-RPC message` };
  }
  const shownMethod = JSON.stringify(method.slice(0, 100));
  if (answerableId(id) === null) {
    return refusal(
      null,
      INVALID_REQUEST,
      `Invalid Request: the id of request ${shownMethod} must be a string or an integer`,
    );
  }
  if (jsonrpc !== '2.0') {
    return refusal(
      answerableId(id),
      INVALID_REQUEST,
      `Invalid Request: "jsonrpc" must be "2.0" in request ${shownMethod}`,
    );
  }
  return refusal(
    answerableId(id),
    INVALID_REQUEST,
    `Invalid Request: request ${shownMethod} is not a well-formed JSON-RPC request`,
  );
}

const ID_VALUE = String.raw`("(?:[^"\\]|\\.){0,256}"|-?\d{1,16})`;
const JSONRPC_FIRST = String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?`;
/**
 * Where clients put a request's id: first (perhaps after `jsonrpc`) and then the method, as most write it, or last
 * after a method written first, as the SDKs do. An answer to the gateway's own request carries the gateway's id,
 * which must not be echoed back: the client would take it for the answer to a request of its own.
 */
const LEADING_ID = new RegExp(`${JSONRPC_FIRST}"id"\\s*:\\s*${ID_VALUE}\\s*,\\s*"method"\\s*:`);
const METHOD_FIRST = new RegExp(`${JSONRPC_FIRST}"method"\\s*:`);
const TRAILING_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

export function oversizeRefusal(head: string, tail: string, limit: number): ClientLine {
  const found = LEADING_ID.exec(head)?.[1] ?? (METHOD_FIRST.test(head) ? TRAILING_ID.exec(tail)?.[1] : undefined);
  let id: string | number | null = null;
  try {
    id = found === undefined ? null : answerableId(JSON.parse(found));
  } catch {
    id = null;
  }
  return refusal(
    id,
    INVALID_REQUEST,
    `Invalid Request: the message is larger than ${limit} bytes (gateway.maxRequestBytes), so it was not read`,
  );
}
