/**
 * Rewrites of single keywords that need no look at child schemas: OpenAPI's `nullable`, draft-07 tuples, `const`,
 * enums holding `null`, unknown `type` names, and annotations a target does not take (`default`, `examples`,
 * `deprecated`…), which become sentences in the description. Draft-04's exclusive bounds are read as the host's
 * argument check reads them (`json/draft04-exclusive-bounds.ts`).
 */

import { type DescriptionAdditions, formatDescribedValue } from './describe-constraints.js';
import { isPlainObject, type JsonObject, jsonTypeOf, TYPE_NAMES, typeList } from './json-value.js';
import type { SchemaRules } from './schema-rules.js';

/** Keywords that only annotate; a `$ref` beside them can be expanded by plain overriding. */
export const ANNOTATION_KEYWORDS = new Set(['title', 'description', 'default', 'examples', 'example', 'deprecated']);

/** OpenAPI's `nullable: true` in JSON Schema terms. */
export function acceptNull(node: JsonObject): JsonObject {
  const types = typeList(node);
  if (types.length > 0) {
    if (types.includes('null')) return node;
    const result: JsonObject = { ...node, type: [...types, 'null'] };
    if (Array.isArray(node.enum) && !node.enum.includes(null)) result.enum = [...node.enum, null];
    return result;
  }
  if (Array.isArray(node.anyOf)) {
    const hasNull = node.anyOf.some((branch) => isPlainObject(branch) && branch.type === 'null');
    return hasNull ? node : { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  }
  if (Object.keys(node).every((keyword) => ANNOTATION_KEYWORDS.has(keyword))) return node;
  const { title, description, ...inner } = node;
  const result: JsonObject = { anyOf: [inner, { type: 'null' }] };
  if (title !== undefined) result.title = title;
  if (description !== undefined) result.description = description;
  return result;
}

/** Draft-07 tuples (`items: [...]`, `additionalItems`) in 2020-12 terms. */
export function tupleToPrefixItems(node: JsonObject): JsonObject {
  const { items, additionalItems, ...rest } = node;
  const result: JsonObject = { ...rest, prefixItems: items };
  if (additionalItems !== undefined) result.items = additionalItems;
  return result;
}

export function constToEnum(node: JsonObject): JsonObject {
  const { const: value, ...rest } = node;
  const result: JsonObject = { ...rest, enum: [value] };
  if (!('type' in rest) && (value === null || typeof value !== 'object')) result.type = jsonTypeOf(value);
  return result;
}

/**
 * An enum holding `null` for a target whose enums hold only strings and numbers: returns the same
 * schema as `anyOf: [enum without null, {type: 'null'}]`, or undefined when there is no null.
 */
export function splitNullFromEnum(node: JsonObject, additions: DescriptionAdditions): JsonObject | undefined {
  const values = node.enum as unknown[];
  if (!values.includes(null)) return undefined;
  const { title, description, ...inner } = node;
  const branch: JsonObject = { ...inner, enum: values.filter((value) => value !== null) };
  const types = typeList(inner).filter((type) => type !== 'null');
  if (types.length > 0) branch.type = types.length === 1 ? types[0] : types;
  else delete branch.type;
  const result: JsonObject = { anyOf: [branch, { type: 'null' }] };
  if (title !== undefined) result.title = title;
  const combined = additions.applyTo(description);
  if (combined !== undefined) result.description = combined;
  return result;
}

export function normaliseType(node: JsonObject, additions: DescriptionAdditions, moved: string[]): JsonObject {
  if (!('type' in node)) return node;
  const { type, ...rest } = node;
  const listed = Array.isArray(type) ? type : [type];
  const valid = [...new Set(listed.filter((item): item is string => typeof item === 'string' && TYPE_NAMES.has(item)))];
  if (valid.length !== listed.length) {
    additions.addConstraint('type', type);
    moved.push('unknown type names');
  }
  if (valid.length === 0) return rest;
  return { ...rest, type: valid.length === 1 ? valid[0] : valid };
}

/** A value quoted as JSON, so `"true"` and `true` read differently. */
function formatDescribedLiteral(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : formatDescribedValue(value);
}

/**
 * A default as it reads best: unquoted where the schema allows strings only and the text has no line break and no
 * space at either end (the type already says it is text, and the line's end where it stops; quotes and their JSON
 * escapes would cost tokens and say nothing), else quoted as JSON.
 */
function formatDescribedDefault(value: unknown, node: JsonObject): string {
  const types = typeList(node);
  const plainText =
    typeof value === 'string' &&
    types.length === 1 &&
    types[0] === 'string' &&
    value !== '' &&
    value === value.trim() &&
    !/[\r\n\u2028\u2029]/.test(value);
  return plainText ? value : formatDescribedLiteral(value);
}

/** `type` for a list of literal values (used when their enum must be described instead). */
export function typeOfValues(values: unknown[]): JsonObject {
  const types = [...new Set(values.map(jsonTypeOf))];
  const merged = types.includes('number') ? types.filter((type) => type !== 'integer') : types;
  const valid = merged.filter((type) => TYPE_NAMES.has(type));
  if (valid.length === 0) return {};
  return { type: valid.length === 1 ? valid[0] : valid };
}

export function describeAnnotations(node: JsonObject, rules: SchemaRules, additions: DescriptionAdditions): JsonObject {
  const result = { ...node };
  // Lines of the form `Name value`: the name is one word and its value fills the rest of the line, so a colon after
  // the name, or a closing full stop, would cost a token each and say nothing more.
  if (rules.defaults === 'describe') {
    if ('default' in result) additions.addSentence(`Default ${formatDescribedDefault(result.default, result)}`);
    if (Array.isArray(result.examples)) {
      additions.addSentence(`Examples ${result.examples.map(formatDescribedLiteral).join(', ')}`);
    }
    delete result.default;
    delete result.examples;
  }
  // `example` is OpenAPI's spelling, not JSON Schema's: no target takes it as a keyword.
  if ('example' in result) additions.addSentence(`Example ${formatDescribedLiteral(result.example)}`);
  if (result.deprecated === true) additions.addSentence('Deprecated.');
  delete result.example;
  delete result.deprecated;
  delete result.readOnly;
  delete result.writeOnly;
  return result;
}
