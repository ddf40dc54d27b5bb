/**
 * Folds `allOf` into one schema, for targets that lack it and for the root (which no provider
 * accepts as a composition).
 *
 * Generators emit `allOf` mostly to extend a base object (`allOf: [{$ref: Base}, {properties…}]`) or to
 * attach a description to a reference; both merge exactly. What cannot be merged exactly (two
 * different `anyOf`s, contradicting values) is returned as a conflict, which the caller describes.
 */

import { exclusiveBoundsAsNumbers } from '../../json/draft04-exclusive-bounds.js';
import { setOwnProperty } from '../../json/own-property.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { isPlainObject, type JsonObject, jsonEqual, typeList } from './json-value.js';

interface AllOfMerge {
  merged: JsonObject;
  /** Keyword/value pairs that could not be merged; the merged schema is looser by exactly these. */
  conflicts: [keyword: string, value: unknown][];
}

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** On a clash the first branch's annotation wins; annotations do not constrain values. */
const ANNOTATIONS = new Set(['title', 'default', 'examples', 'example', '$comment', 'deprecated']);

/**
 * Merges `node.allOf` into `node`; `resolve` turns a `$ref` into its target schema (or undefined). `budget` counts
 * each reference followed and each value compared, and bounds chains of references (it throws past a bound).
 */
export function mergeAllOf(
  node: JsonObject,
  resolve: (reference: string) => unknown,
  budget: ExpansionBudget,
): AllOfMerge {
  return mergeWithSeen(node, { resolve, budget }, new Set());
}

interface Merging {
  resolve: (reference: string) => unknown;
  budget: ExpansionBudget;
}

function mergeWithSeen(node: JsonObject, merging: Merging, seen: Set<string>): AllOfMerge {
  const { allOf, ...rest } = node;
  const conflicts: AllOfMerge['conflicts'] = [];
  // Draft-04's boolean bounds read with the bound beside them in their own part: merged first, a bound from another
  // part would take their place (`minimum: 0, exclusiveMinimum: true` and `minimum: 5` is not above 5).
  const merged: JsonObject = { ...exclusiveBoundsAsNumbers(rest) };
  if (!Array.isArray(allOf)) return { merged, conflicts };
  for (const branch of allOf) {
    const flat = flattenBranch(branch, merging, seen, conflicts);
    if (flat) mergeInto(merged, exclusiveBoundsAsNumbers(flat), conflicts, merging.budget);
  }
  return { merged, conflicts };
}

function flattenBranch(
  branch: unknown,
  merging: Merging,
  seen: Set<string>,
  conflicts: AllOfMerge['conflicts'],
): JsonObject | undefined {
  if (branch === true) return undefined;
  if (!isPlainObject(branch)) {
    conflicts.push(['allOf', branch]);
    return undefined;
  }
  let schema = branch;
  if (typeof schema.$ref === 'string') {
    const reference = schema.$ref;
    const target = seen.has(reference) ? undefined : follow(reference, merging, seen.size + 1);
    if (!isPlainObject(target)) {
      // A recursive or unresolvable reference cannot be folded in: keep it visible in the description.
      conflicts.push(['allOf', branch]);
      return undefined;
    }
    const { $ref: _reference, ...siblings } = schema;
    schema = { ...target, ...siblings };
    if ('allOf' in target && !('allOf' in siblings)) schema.allOf = target.allOf;
    const inner = mergeWithSeen(schema, merging, new Set([...seen, reference]));
    conflicts.push(...inner.conflicts);
    return inner.merged;
  }
  if (!Array.isArray(schema.allOf)) return schema;
  const inner = mergeWithSeen(schema, merging, seen);
  conflicts.push(...inner.conflicts);
  return inner.merged;
}

function follow(reference: string, merging: Merging, chain: number): unknown {
  merging.budget.step();
  merging.budget.checkChain(chain);
  return merging.resolve(reference);
}

function mergeInto(
  target: JsonObject,
  source: JsonObject,
  conflicts: AllOfMerge['conflicts'],
  budget: ExpansionBudget,
): void {
  for (const [keyword, value] of Object.entries(source)) {
    if (!Object.hasOwn(target, keyword)) {
      setOwnProperty(target, keyword, value);
      continue;
    }
    const current = target[keyword];
    if (jsonEqual(current, value, budget.compared)) continue;
    const merged = mergeKeyword(keyword, current, value, budget);
    if (merged === CONFLICT) conflicts.push([keyword, value]);
    else setOwnProperty(target, keyword, merged);
  }
}

const CONFLICT = Symbol('conflict');

function mergeKeyword(keyword: string, current: unknown, value: unknown, budget: ExpansionBudget): unknown {
  if (ANNOTATIONS.has(keyword)) return current;
  if (keyword === 'description') return `${String(current)}\n${String(value)}`;
  if (keyword === 'properties' && isPlainObject(current) && isPlainObject(value)) {
    const properties: JsonObject = { ...current };
    for (const [name, schema] of Object.entries(value)) {
      setOwnProperty(
        properties,
        name,
        Object.hasOwn(properties, name) ? { allOf: [properties[name], schema] } : schema,
      );
    }
    return properties;
  }
  if (keyword === 'required' && Array.isArray(current) && Array.isArray(value)) {
    return [...current, ...value.filter((name) => !current.includes(name))];
  }
  if (keyword === 'type') return intersectTypes(current, value);
  if (keyword === 'enum' && Array.isArray(current) && Array.isArray(value)) {
    return current.filter((item) => value.some((other) => jsonEqual(item, other, budget.compared)));
  }
  if (typeof current === 'number' && typeof value === 'number') {
    if (LOWER_BOUNDS.has(keyword)) return Math.max(current, value);
    if (UPPER_BOUNDS.has(keyword)) return Math.min(current, value);
  }
  if (keyword === 'additionalProperties') {
    // `false` in one branch meant "no keys beyond the ones declared"; over the merged properties
    // that is still what the author wanted.
    if (current === false || value === false) return false;
    if (current === true) return value;
    if (value === true) return current;
    return { allOf: [current, value] };
  }
  if (keyword === 'items' && isPlainObject(current) && isPlainObject(value)) return { allOf: [current, value] };
  return CONFLICT;
}

function intersectTypes(current: unknown, value: unknown): unknown {
  const left = typeList({ type: current });
  const right = typeList({ type: value });
  const both: string[] = [];
  for (const type of left) {
    if (right.includes(type)) both.push(type);
    else if (type === 'integer' && right.includes('number')) both.push('integer');
    else if (type === 'number' && right.includes('integer')) both.push('integer');
  }
  const unique = [...new Set(both)];
  if (unique.length === 0) return CONFLICT;
  return unique.length === 1 ? unique[0] : unique;
}
