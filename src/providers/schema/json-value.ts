/**
 * Small helpers for treating JSON Schemas as plain JSON data.
 *
 * Schemas arrive from MCP servers we do not control: they may hold `undefined`, shared sub-objects or
 * values that are not JSON at all. Everything in `providers/schema/` works on a private deep copy made
 * here, so the caller's object is never mutated and the output is always JSON-serialisable. Keys are
 * copied with `setOwnProperty` (a property named `__proto__` stays a property) and so must every
 * later copy that goes key by key; spreads are safe.
 */

import { JsonTooDeepError, MAX_JSON_DEPTH } from '../../json/json-depth.js';
import { setOwnProperty } from '../../json/own-property.js';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A deep copy holding only JSON values: `undefined`, functions, symbols and non-finite numbers are dropped. A value
 * nested deeper than {@link MAX_JSON_DEPTH} (or holding a cycle) throws a {@link JsonTooDeepError} naming `what`,
 * instead of overflowing the stack here or in any walk after.
 */
export function cloneJson(value: unknown, what = 'the value'): unknown {
  return cloneWithinDepth(value, what, 0);
}

/** `depth`: how many objects and arrays enclose `value`. */
function cloneWithinDepth(value: unknown, what: string, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'object') return undefined;
  if (depth >= MAX_JSON_DEPTH) throw new JsonTooDeepError(what);
  if (Array.isArray(value)) {
    return value.map((item) => {
      const copy = cloneWithinDepth(item, what, depth + 1);
      return copy === undefined ? null : copy;
    });
  }
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const itemCopy = cloneWithinDepth(item, what, depth + 1);
    if (itemCopy !== undefined) setOwnProperty(copy, key, itemCopy);
  }
  return copy;
}

/**
 * Structural equality of two JSON values; object key order does not matter, array order does. `visit` is called for
 * each pair of values compared, so a caller can bound the work.
 */
export function jsonEqual(left: unknown, right: unknown, visit?: () => void): boolean {
  visit?.();
  if (left === right) return true;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index], visit));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key], visit));
  }
  return false;
}

/** The names JSON Schema's `type` keyword takes. */
export const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** The JSON type name of a value, as JSON Schema's `type` keyword spells it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `type` as a list, whether the schema spells it as a string, an array, or not at all. */
export function typeList(schema: JsonObject): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string');
  return [];
}
