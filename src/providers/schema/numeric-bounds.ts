/**
 * Numeric bounds said in fewer tokens, with nothing lost.
 *
 * - On an integer, an exclusive bound is the inclusive one next to it (`exclusiveMinimum: 0` is `minimum: 1`): a
 *   target that takes `minimum`/`maximum` but not the exclusive keywords gets the inclusive one, where the exclusive
 *   one would otherwise be written into the description.
 * - Bounds of ∓(2^53 − 1), which zod writes on every `.int()`, are left out where the rules say so.
 */

import { type JsonObject, typeList } from './json-value.js';
import type { SchemaRules } from './schema-rules.js';

export function tightenNumericBounds(input: JsonObject, rules: SchemaRules): JsonObject {
  const node = isIntegerOnly(input) ? inclusiveIntegerBounds(input, rules) : input;
  if (rules.safeIntegerBounds === 'keep') return node;
  const result = { ...node };
  if (result.minimum === -Number.MAX_SAFE_INTEGER) delete result.minimum;
  if (result.maximum === Number.MAX_SAFE_INTEGER) delete result.maximum;
  return result;
}

/** Integers only (or null, which no bound applies to). */
function isIntegerOnly(node: JsonObject): boolean {
  const types = typeList(node);
  return types.includes('integer') && types.every((type) => type === 'integer' || type === 'null');
}

function inclusiveIntegerBounds(node: JsonObject, rules: SchemaRules): JsonObject {
  const result = { ...node };
  const lower = inclusiveBound(node.exclusiveMinimum, node.minimum, 'exclusiveMinimum', 'minimum', rules);
  if (lower !== undefined) {
    result.minimum = lower;
    delete result.exclusiveMinimum;
  }
  const upper = inclusiveBound(node.exclusiveMaximum, node.maximum, 'exclusiveMaximum', 'maximum', rules);
  if (upper !== undefined) {
    result.maximum = upper;
    delete result.exclusiveMaximum;
  }
  return result;
}

/**
 * The inclusive bound an integer's exclusive one comes to, joined with an inclusive bound beside it; undefined when
 * the target takes the exclusive keyword, lacks the inclusive one, or the values are not plain numbers.
 */
function inclusiveBound(
  exclusive: unknown,
  inclusive: unknown,
  exclusiveKeyword: 'exclusiveMinimum' | 'exclusiveMaximum',
  inclusiveKeyword: 'minimum' | 'maximum',
  rules: SchemaRules,
): number | undefined {
  if (rules.keywords.has(exclusiveKeyword) || !rules.keywords.has(inclusiveKeyword)) return undefined;
  if (typeof exclusive !== 'number' || (inclusive !== undefined && typeof inclusive !== 'number')) return undefined;
  const lower = inclusiveKeyword === 'minimum';
  const bound = lower ? Math.floor(exclusive) + 1 : Math.ceil(exclusive) - 1;
  if (!Number.isSafeInteger(bound)) return undefined;
  if (inclusive === undefined) return bound;
  return lower ? Math.max(bound, inclusive) : Math.min(bound, inclusive);
}
