/**
 * One line from a stdio server → a JSON-RPC message, or undefined when it is not one.
 *
 * The SDK's `deserializeMessage` checks every line against a union of four strict schemas; for a notification
 * the failing request branch builds an error object first, which made a flood of 200,000 notifications cost about
 * a millisecond each. A plain notification (only `jsonrpc`, `method` and object `params` without `_meta`) is
 * recognised here directly — exactly what the SDK's notification schema accepts for it; every other line still
 * goes through the SDK's validation.
 */
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isPlainNotification(value: unknown): value is JSONRPCMessage {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  for (const key of Object.keys(value)) if (!NOTIFICATION_KEYS.has(key)) return false;
  const params = value.params;
  return params === undefined || (isPlainObject(params) && params._meta === undefined);
}

export function parseJsonRpcLine(line: string): JSONRPCMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (isPlainNotification(value)) return value;
  try {
    return deserializeMessage(line);
  } catch {
    return undefined;
  }
}
