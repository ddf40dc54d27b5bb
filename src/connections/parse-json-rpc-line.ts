/**
 * One line from a stdio server → a JSON-RPC message, or undefined when it is not one.
 *
 * The SDK's `deserializeMessage` checks every line against a union of four strict schemas; for a notification
 * the failing request branch builds an error object first, which made a flood of 200,000 notifications cost about
 * a millisecond each, and parses the line a second time. Two shapes are recognised here directly, exactly as the SDK's
 * schemas accept them: a plain notification (only `jsonrpc`, `method` and object `params` without `_meta`) and a plain
 * result (only `jsonrpc`, a string or integer `id` and an object `result` without `_meta`), the answer to every
 * call. For a result the union first tries the request branch, whose failure builds an error object: about a fifth
 * of a call's own time over stdio. Every other line still goes through the SDK's validation.
 * A value that is not an object with `jsonrpc: "2.0"` matches none of the SDK's schemas and is refused before
 * them: a server spewing garbage costs a parse per line, not a failed four-way validation.
 */
import { type JSONRPCMessage, parseJSONRPCMessage } from '@modelcontextprotocol/client';
import { isPlainObject } from '../json/is-plain-object.js';
import { cutTooDeepText } from '../json/json-depth.js';
import { answeredId } from './invalid-answer.js';
import { restoreLongStrings } from './json-line-builder.js';

const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);

function isPlainNotification(value: unknown): value is JSONRPCMessage {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  for (const key of Object.keys(value)) if (!NOTIFICATION_KEYS.has(key)) return false;
  const params = value.params;
  return params === undefined || (isPlainObject(params) && params._meta === undefined);
}

function isPlainResult(value: unknown): value is JSONRPCMessage {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return false;
  const id = value.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  for (const key of Object.keys(value)) if (!RESULT_KEYS.has(key)) return false;
  return isPlainObject(value.result) && value.result._meta === undefined;
}

export function parseJsonRpcLine(line: string, longStrings: readonly string[] = []): JSONRPCMessage | undefined {
  const read = readValue(line, longStrings);
  return read?.message;
}

/**
 * The line's value, and the JSON-RPC message it is if it is one; undefined when the line is not JSON. (A value that
 * is not a message may still read as an answer to one of the host's requests: see invalid-answer.ts.)
 */
function readValue(
  line: string,
  longStrings: readonly string[],
): { value: unknown; message: JSONRPCMessage | undefined } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (longStrings.length > 0) value = restoreLongStrings(value, longStrings);
  if (isPlainResult(value) || isPlainNotification(value)) return { value, message: value };
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return { value, message: undefined };
  try {
    return { value, message: parseJSONRPCMessage(value) };
  } catch {
    return { value, message: undefined };
  }
}

/** A line that is JSON claiming JSON-RPC 2.0 and answering `id`, but not a valid JSON-RPC message. */
export interface InvalidAnswerLine {
  invalidAnswer: Record<string, unknown>;
  id: string | number;
}

/**
 * As {@link parseJsonRpcLine} (`longStrings`: those a line was built without, see json-line-builder.ts), but a line
 * nested too deep is read with its too-deep parts cut (see `cutTooDeepText`) and flagged, so it can be refused by id
 * and method without building the whole value; and a line that reads as an answer but is not a valid one is given
 * back with the id it answers, so that the request waiting for it can be failed.
 */
export function readJsonRpcLine(
  line: string,
  longStrings: readonly string[] = [],
): { message: JSONRPCMessage; tooDeep: boolean } | InvalidAnswerLine | undefined {
  const cut = cutTooDeepText(line);
  const read = readValue(cut ?? line, longStrings);
  if (read === undefined) return undefined;
  if (read.message !== undefined) return { message: read.message, tooDeep: cut !== undefined };
  const id = answeredId(read.value);
  return id === undefined ? undefined : { invalidAnswer: read.value as Record<string, unknown>, id };
}
