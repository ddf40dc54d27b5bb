/**
 * JSON with object keys in sorted order at every depth, so two equal values always serialise to the same text no
 * matter how their keys were inserted. Fingerprints and pinned tool definitions hash this text; `JSON.stringify`
 * would make a server that merely reorders schema keys look like it changed its tools.
 *
 * Otherwise it follows `JSON.stringify`: array order is kept (it is meaningful: enum order, tuple items),
 * properties that are undefined, functions or symbols are dropped, such array items become `null`, non-finite
 * numbers become `null`, `toJSON` is honoured, a BigInt or a cycle throws a TypeError. A top-level value JSON cannot
 * represent (undefined, a function) gives `null`, since the result is always a string. A value nested deeper than
 * `MAX_JSON_DEPTH` throws a `JsonTooDeepError` instead of overflowing the stack.
 */

import { JsonTooDeepError, MAX_JSON_DEPTH } from '../json/json-depth.js';

const MAX_INDENT = 10;

/** `indent` spaces per level as in `JSON.stringify` (capped at 10); none by default. */
export function stableStringify(value: unknown, indent = 0): string {
  const unit = ' '.repeat(Math.max(0, Math.min(MAX_INDENT, Math.floor(indent))));
  return serialise(value, '', unit, '', new Set()) ?? 'null';
}

function serialise(
  value: unknown,
  key: string,
  unit: string,
  currentIndent: string,
  ancestors: Set<object>,
): string | undefined {
  let current = value;
  if (current !== null && (typeof current === 'object' || typeof current === 'bigint')) {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') current = toJSON.call(current, key);
  }
  if (current instanceof Number || current instanceof String || current instanceof Boolean) current = current.valueOf();

  if (current === null) return 'null';
  switch (typeof current) {
    case 'string':
    case 'boolean':
      return JSON.stringify(current);
    case 'number':
      return Number.isFinite(current) ? JSON.stringify(current) : 'null';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }

  const object = current as object;
  if (ancestors.has(object)) throw new TypeError('Converting circular structure to JSON');
  // The ancestors are the path from the root: past the bound this is a hostile value, not a definition.
  if (ancestors.size >= MAX_JSON_DEPTH) throw new JsonTooDeepError('the value');
  ancestors.add(object);
  const innerIndent = currentIndent + unit;
  const opening = unit === '' ? '' : `\n${innerIndent}`;
  const separator = unit === '' ? ',' : `,\n${innerIndent}`;
  const closing = unit === '' ? '' : `\n${currentIndent}`;
  let text: string;

  if (Array.isArray(object)) {
    const items = object.map((item, index) => serialise(item, String(index), unit, innerIndent, ancestors) ?? 'null');
    text = items.length === 0 ? '[]' : `[${opening}${items.join(separator)}${closing}]`;
  } else {
    const record = object as Record<string, unknown>;
    const colon = unit === '' ? ':' : ': ';
    const members: string[] = [];
    for (const name of Object.keys(record).sort()) {
      const member = serialise(record[name], name, unit, innerIndent, ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(name)}${colon}${member}`);
    }
    text = members.length === 0 ? '{}' : `{${opening}${members.join(separator)}${closing}}`;
  }
  ancestors.delete(object);
  return text;
}
