/**
 * The common `tools/call` result, recognised by hand: `{ content: [{ type: 'text', text }…], isError? }` and nothing
 * else. Checking it with the SDK's result schema (zod) cost a twentieth of a call's CPU over stdio; this walk costs
 * a few property reads per item.
 *
 * It accepts only what the SDK's schema accepts and would hand back unchanged: a plain object with no keys but
 * `content` and `isError`, `content` an array of plain objects with exactly the keys `type` (`"text"`) and `text` (a
 * string), `isError` a boolean when present. Anything else (other content kinds, annotations, `_meta`,
 * `structuredContent`, extra keys the schema would strip, wrong types) is not judged here: the caller falls back to
 * the SDK's schema, which accepts or refuses it with its own message. (Named properties of the `content` array
 * itself, which JSON cannot carry, are not looked at; the SDK accepts them too, and drops them.)
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { isPlainObject } from '../json/is-plain-object.js';

function isPlainTextItem(item: unknown): boolean {
  if (!isPlainObject(item) || item.type !== 'text' || typeof item.text !== 'string') return false;
  let keys = 0;
  for (const key in item) {
    if (key !== 'type' && key !== 'text') return false;
    keys += 1;
  }
  return keys === 2;
}

/** Whether `value` is a plain text-only `tools/call` result that the SDK's schema would accept as it is. */
export function isPlainTextCallResult(value: unknown): value is CallToolResult {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (key === 'content') continue;
    if (key !== 'isError' || typeof value.isError !== 'boolean') return false;
  }
  const content = value.content;
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return false;
  for (let index = 0; index < content.length; index += 1) {
    if (!isPlainTextItem(content[index])) return false;
  }
  return true;
}
