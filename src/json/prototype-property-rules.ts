/**
 * A JSON Schema whose rules for a property named `__proto__` the engine checks. Ajv leaves the key `__proto__` of
 * `properties` out of everything it compiles, so a server's rules for that property are never checked, and under
 * `additionalProperties: false` the property counts as one the schema does not name. The same rules under
 * `patternProperties` `^__proto__$` mean exactly that (rules for that one key, which then is not an additional one)
 * and are checked. `properties` itself is left as it is, so a `$ref` into it still finds its target.
 *
 * Only subschemas are walked (`const`, `enum`, `default` and `examples` hold values, not schemas), down to
 * `MAX_JSON_DEPTH`. Nothing is changed in place: a schema is copied only where it gains the pattern, so one without
 * such a property is handed back as it is.
 */
import { isPlainObject } from './is-plain-object.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { setOwnProperty } from './own-property.js';

const PROTOTYPE_KEY_PATTERN = '^__proto__$';
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

export function withPrototypePropertyRules<Schema>(schema: Schema): Schema {
  return walkSchema(schema, 0) as Schema;
}

function walkSchema(schema: unknown, depth: number): unknown {
  if (!isPlainObject(schema) || depth > MAX_JSON_DEPTH) return schema;
  let copy: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => {
    copy ??= { ...schema };
    setOwnProperty(copy, key, value);
  };
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    let walked = value;
    if (SCHEMA_MAPS.has(key)) walked = walkMap(value, depth + 1);
    else if (SCHEMA_LISTS.has(key) || (key === 'items' && Array.isArray(value))) walked = walkList(value, depth + 1);
    else if (ONE_SCHEMA.has(key)) walked = walkSchema(value, depth + 1);
    if (walked !== value) set(key, walked);
  }
  const properties = (copy ?? schema).properties;
  const patterns = (copy ?? schema).patternProperties;
  // A `patternProperties` that is no map is left to fail the compile as it would have.
  if (!isPlainObject(properties) || !Object.hasOwn(properties, '__proto__')) return copy ?? schema;
  if (patterns !== undefined && !isPlainObject(patterns)) return copy ?? schema;
  const rules: unknown = Object.getOwnPropertyDescriptor(properties, '__proto__')?.value;
  const earlier = patterns !== undefined && Object.hasOwn(patterns, PROTOTYPE_KEY_PATTERN);
  const combined = earlier ? { allOf: [patterns[PROTOTYPE_KEY_PATTERN], rules] } : rules;
  set('patternProperties', { ...patterns, [PROTOTYPE_KEY_PATTERN]: combined });
  return copy ?? schema;
}

function walkMap(map: unknown, depth: number): unknown {
  if (!isPlainObject(map) || depth > MAX_JSON_DEPTH) return map;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(map)) {
    const value = map[key];
    const walked = walkSchema(value, depth + 1);
    if (walked === value) continue;
    copy ??= { ...map };
    setOwnProperty(copy, key, walked);
  }
  return copy ?? map;
}

function walkList(list: unknown, depth: number): unknown {
  if (!Array.isArray(list) || depth > MAX_JSON_DEPTH) return list;
  let copy: unknown[] | undefined;
  list.forEach((item: unknown, index) => {
    const walked = walkSchema(item, depth + 1);
    if (walked === item) return;
    copy ??= [...list];
    copy[index] = walked;
  });
  return copy ?? list;
}
