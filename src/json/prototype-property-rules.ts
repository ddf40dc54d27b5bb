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
 * Every subschema is given its rules (see map-subschemas.ts): a schema is copied only where it gains a rule, so one
 * without such a key is handed back as it is.
 */
import { isPlainObject } from './is-plain-object.js';
import { mapSubschemas } from './map-subschemas.js';

/** Names the one property `__proto__`. */
const PROTOTYPE_PROPERTY_PATTERN = '^__proto__$';
/** The pattern `__proto__` as a key Ajv does not leave out: the same names match it. */
const PROTOTYPE_PATTERN_REWRITTEN = '(?:__proto__)';

export function withPrototypePropertyRules<Schema>(schema: Schema): Schema {
  return mapSubschemas(schema, (node) => withDependencyRules(withPatternRules(withPropertyRules(node))));
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
