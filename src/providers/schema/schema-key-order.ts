/**
 * One fixed key order for every schema the host sends.
 *
 * Providers cache prompts by exact prefix: the same tool must serialise to the same bytes on every
 * request, whatever order the server happened to write its keywords in. Only keyword maps are
 * reordered; the names inside `properties` keep the server's order (models read them in that order)
 * and values (`enum`, `default`…) are never touched.
 */

import { setOwnProperty } from '../../json/own-property.js';
import type { JsonObject } from './json-value.js';

const KEYWORD_ORDER = [
  '$ref',
  'type',
  'title',
  'description',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'default',
  'examples',
];

const RANK = new Map(KEYWORD_ORDER.map((keyword, index) => [keyword, index]));

/** A copy of `node` with its own keys in the canonical order; `$defs` always last. */
export function orderSchemaKeys(node: JsonObject): JsonObject {
  const keys = Object.keys(node).sort((left, right) => rankOf(left) - rankOf(right) || compareText(left, right));
  const ordered: JsonObject = {};
  for (const key of keys) setOwnProperty(ordered, key, node[key]);
  return ordered;
}

function rankOf(key: string): number {
  if (key === '$defs') return Number.MAX_SAFE_INTEGER;
  return RANK.get(key) ?? KEYWORD_ORDER.length;
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
