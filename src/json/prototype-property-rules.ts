/**
 * A JSON Schema whose rules keyed by the name `__proto__` the engine checks. Ajv leaves the key `__proto__` out of
 * three maps of names it compiles, so a server's rules under it would never be checked; each is given again in an
 * equivalent form the engine does check:
 * - `properties`: the rules for the property named `__proto__` are also put under `patternProperties`
 *   `^__proto__$`, which means exactly that (rules for that one key, which then is not an additional one); under
 *   `additionalProperties: false` the property would otherwise count as one the schema does not name.
 * - `patternProperties`: the rules for names matching the pattern `__proto__` are also put under the same pattern
 *   written `(?:__proto__)`, which matches the same names, so `additionalProperties` also leaves them alone.
 * - `dependencies`: what the presence of a property named `__proto__` requires (a list of names or a schema) is
 *   also an `allOf` part `{"if": {"required": ["__proto__"]}, "then": ...}`, which holds exactly when it does and
 *   counts the same properties evaluated.
 * `dependentSchemas`, `dependentRequired`, `required` and `propertyNames` are read by the engine as they are, the
 * name `__proto__` included. The maps themselves are left as they are, so a `$ref` into one still finds its target.
 *
 * Only subschemas are walked (`const`, `enum`, `default` and `examples` hold values, not schemas), down to
 * `MAX_JSON_DEPTH`. Nothing is changed in place: a schema is copied only where it gains a rule, so one without
 * such a key is handed back as it is. A map or list that is not one is left to fail the compile as it would have.
 */
import { isPlainObject } from './is-plain-object.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { setOwnProperty } from './own-property.js';

/** Names the one property `__proto__`. */
const PROTOTYPE_PROPERTY_PATTERN = '^__proto__$';
/** The pattern `__proto__` as a key Ajv does not leave out: the same names match it. */
const PROTOTYPE_PATTERN_REWRITTEN = '(?:__proto__)';
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
  return withDependencyRules(withPatternRules(withPropertyRules(copy ?? schema)));
}

function withPropertyRules(schema: Record<string, unknown>): Record<string, unknown> {
  const rules = prototypeKeyValue(schema.properties);
  return rules === undefined ? schema : withPatternProperty(schema, PROTOTYPE_PROPERTY_PATTERN, rules.value);
}

function withPatternRules(schema: Record<string, unknown>): Record<string, unknown> {
  const rules = prototypeKeyValue(schema.patternProperties);
  return rules === undefined ? schema : withPatternProperty(schema, PROTOTYPE_PATTERN_REWRITTEN, rules.value);
}

function withDependencyRules(schema: Record<string, unknown>): Record<string, unknown> {
  const dependency = prototypeKeyValue(schema.dependencies);
  const parts = schema.allOf;
  if (dependency === undefined || (parts !== undefined && !Array.isArray(parts))) return schema;
  const then = Array.isArray(dependency.value) ? { required: dependency.value } : dependency.value;
  const part = { if: { required: ['__proto__'] }, then };
  return { ...schema, allOf: [...(parts ?? []), part] };
}

/** `rules` under `patternProperties` `pattern`, beside what the server wrote there for it. */
function withPatternProperty(schema: Record<string, unknown>, pattern: string, rules: unknown) {
  const patterns = schema.patternProperties;
  if (patterns !== undefined && !isPlainObject(patterns)) return schema;
  const earlier = patterns !== undefined && Object.hasOwn(patterns, pattern);
  const combined = earlier ? { allOf: [patterns[pattern], rules] } : rules;
  return { ...schema, patternProperties: { ...patterns, [pattern]: combined } };
}

/** The value of `map`'s own key `__proto__`, when `map` is a map that has one. */
function prototypeKeyValue(map: unknown): { value: unknown } | undefined {
  if (!isPlainObject(map) || !Object.hasOwn(map, '__proto__')) return undefined;
  return { value: Object.getOwnPropertyDescriptor(map, '__proto__')?.value };
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
