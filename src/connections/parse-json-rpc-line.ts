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
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (longStrings.length > 0) value = restoreLongStrings(value, longStrings);
  if (isPlainResult(value) || isPlainNotification(value)) return value;
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return undefined;
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/**
 * As {@link parseJsonRpcLine} (`longStrings`: those a line was built without, see json-line-builder.ts), but a line nested too deep is read with its too-deep parts cut (see
 * `cutTooDeepText`) and flagged, so it can be refused by id and method without building the whole value.
 */
export function readJsonRpcLine(
  line: string,
  longStrings: readonly string[] = [],
): { message: JSONRPCMessage; tooDeep: boolean } | undefined {
  const cut = cutTooDeepText(line);
  const message = parseJsonRpcLine(cut ?? line, longStrings);
  return message === undefined ? undefined : { message, tooDeep: cut !== undefined };
}
