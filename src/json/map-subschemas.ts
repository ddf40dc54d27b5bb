/**
 * A JSON Schema with each of its subschemas, and then itself, handed to `rewrite`, deepest first. Only subschemas are
 * walked (`const`, `enum`, `default` and `examples` hold values, not schemas, and a property may be named like a
 * keyword), down to `MAX_JSON_DEPTH`. Nothing is changed in place: a schema is copied only where `rewrite` or a walk
 * below it changed something, so one it leaves alone is handed back as it is. A map or list that is not one is left
 * as it is, to fail the compile as it would have.
 */
import { isPlainObject } from './is-plain-object.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { setOwnProperty } from './own-property.js';

type SchemaRewrite = (schema: Record<string, unknown>) => Record<string, unknown>;

/** Keywords whose value is one subschema (`items` may also be a list of them). */
const ONE_SCHEMA = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'contentSchema',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas (`dependencies` may also map a name to a list of names). */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

export function mapSubschemas<Schema>(schema: Schema, rewrite: SchemaRewrite): Schema {
  return walkSchema(schema, rewrite, 0) as Schema;
}

function walkSchema(schema: unknown, rewrite: SchemaRewrite, depth: number): unknown {
  if (!isPlainObject(schema) || depth > MAX_JSON_DEPTH) return schema;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    let walked = value;
    if (SCHEMA_MAPS.has(key)) walked = walkMap(value, rewrite, depth + 1);
    else if (SCHEMA_LISTS.has(key) || (key === 'items' && Array.isArray(value))) {
      walked = walkList(value, rewrite, depth + 1);
    } else if (ONE_SCHEMA.has(key)) walked = walkSchema(value, rewrite, depth + 1);
    if (walked === value) continue;
    copy ??= { ...schema };
    setOwnProperty(copy, key, walked);
  }
  return rewrite(copy ?? schema);
}

function walkMap(map: unknown, rewrite: SchemaRewrite, depth: number): unknown {
  if (!isPlainObject(map) || depth > MAX_JSON_DEPTH) return map;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(map)) {
    const value = map[key];
    const walked = walkSchema(value, rewrite, depth + 1);
    if (walked === value) continue;
    copy ??= { ...map };
    setOwnProperty(copy, key, walked);
  }
  return copy ?? map;
}

function walkList(list: unknown, rewrite: SchemaRewrite, depth: number): unknown {
  if (!Array.isArray(list) || depth > MAX_JSON_DEPTH) return list;
  let copy: unknown[] | undefined;
  list.forEach((item: unknown, index) => {
    const walked = walkSchema(item, rewrite, depth + 1);
    if (walked === item) return;
    copy ??= [...list];
    copy[index] = walked;
  });
  return copy ?? list;
}
