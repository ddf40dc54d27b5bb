/**
 * OpenAI strict mode ("Structured Outputs" for tools): the model's arguments are guaranteed to match
 * the schema, but only a subset of JSON Schema is allowed and every object must be closed with every
 * property required. `toStrictSchema` tries the conversion and answers `undefined` when the schema
 * cannot be strict, so the adapter sends `strict: false` instead of a request OpenAI would reject.
 *
 * Optional properties become required-but-nullable; `removeStrictNullPlaceholders` turns the model's
 * `null` for such a property back into "not given" before the call reaches the server.
 */

import { setOwnProperty } from '../../json/own-property.js';
import { cloneJson, isPlainObject, type JsonObject, typeList } from './json-value.js';
import { orderSchemaKeys } from './schema-key-order.js';

/** Keywords strict mode accepts (the complement of the list the official `openai` SDK rejects, narrowed by the docs). */
const STRICT_KEYWORDS = new Set([
  '$ref',
  '$defs',
  'type',
  'title',
  'description',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** OpenAI's documented size limits for one strict schema (unverified against the live API). */
export const STRICT_LIMITS = {
  /** Levels of object nesting. */
  maxNesting: 10,
  /** Object properties in the whole schema. */
  maxProperties: 5000,
  /** Enum values in the whole schema. */
  maxEnumValues: 1000,
} as const;

interface StrictTally {
  properties: number;
  enumValues: number;
}

/** The strict form of an (already normalised) schema, or undefined when it cannot be strict. */
export function toStrictSchema(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const root = cloneJson(schema);
  if (!isPlainObject(root) || root.type !== 'object' || 'anyOf' in root) return undefined;
  const tally: StrictTally = { properties: 0, enumValues: 0 };
  const { $defs: definitions, ...body } = root;
  const result = strictNode(body, 1, tally);
  if (!result) return undefined;
  if (definitions !== undefined) {
    if (!isPlainObject(definitions)) return undefined;
    const strictDefinitions: JsonObject = {};
    for (const [name, definition] of Object.entries(definitions)) {
      const strict = strictNode(definition, 1, tally);
      if (!strict) return undefined;
      setOwnProperty(strictDefinitions, name, strict);
    }
    result.$defs = strictDefinitions;
  }
  if (tally.properties > STRICT_LIMITS.maxProperties || tally.enumValues > STRICT_LIMITS.maxEnumValues) {
    return undefined;
  }
  return orderSchemaKeys(result);
}

function strictNode(node: unknown, level: number, tally: StrictTally): JsonObject | undefined {
  if (!isPlainObject(node) || level > STRICT_LIMITS.maxNesting) return undefined;
  if (Object.keys(node).some((keyword) => !STRICT_KEYWORDS.has(keyword))) return undefined;
  if ('$ref' in node) return Object.keys(node).length === 1 ? { ...node } : undefined;
  if (!('type' in node || 'anyOf' in node || 'enum' in node || 'const' in node)) return undefined;
  if ('format' in node && !(typeof node.format === 'string' && STRICT_FORMATS.has(node.format))) return undefined;
  if (Array.isArray(node.enum)) tally.enumValues += node.enum.length;
  const result: JsonObject = { ...node };
  // An object that is a union of object branches is closed in its branches, not here.
  const unionOfObjects = Array.isArray(node.anyOf) && !('properties' in node);
  if ((typeList(node).includes('object') && !unionOfObjects) || 'properties' in node) {
    // A map (`additionalProperties` with a schema) cannot be closed without losing its keys.
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) return undefined;
    const properties = isPlainObject(node.properties) ? node.properties : {};
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const strictProperties: JsonObject = {};
    for (const [name, child] of Object.entries(properties)) {
      tally.properties += 1;
      const strict = strictNode(child, level + 1, tally);
      if (!strict) return undefined;
      setOwnProperty(strictProperties, name, required.has(name) ? strict : withNull(strict));
    }
    result.properties = strictProperties;
    result.required = Object.keys(strictProperties);
    result.additionalProperties = false;
  }
  if ('items' in node) {
    const items = strictNode(node.items, level + 1, tally);
    if (!items) return undefined;
    result.items = items;
  }
  if ('anyOf' in node) {
    if (!Array.isArray(node.anyOf)) return undefined;
    const branches = node.anyOf.map((branch) => strictNode(branch, level, tally));
    if (branches.some((branch) => branch === undefined)) return undefined;
    result.anyOf = branches;
  }
  return orderSchemaKeys(result);
}

/** The same schema that also accepts `null` (how strict mode spells "optional"). */
function withNull(schema: JsonObject): JsonObject {
  if (acceptsNull(schema)) return schema;
  const types = typeList(schema);
  if (types.length > 0 && !('$ref' in schema)) {
    const result: JsonObject = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
    return orderSchemaKeys(result);
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const { description, ...rest } = schema;
  const result: JsonObject = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) result.description = description;
  return orderSchemaKeys(result);
}

function acceptsNull(schema: JsonObject): boolean {
  if (typeList(schema).includes('null')) return !Array.isArray(schema.enum) || schema.enum.includes(null);
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((branch) => isPlainObject(branch) && acceptsNull(branch));
  return 'const' in schema && schema.const === null;
}

/** How deep `removeStrictNullPlaceholders` follows nested values (and `$ref` chains). */
const MAX_CLEANING_DEPTH = 64;

/**
 * Removes the `null`s strict mode made the model send for properties it did not want to give, so the
 * server sees them as omitted. `schema` is the non-strict schema (the one `toStrictSchema` was given):
 * a property it already allows to be null keeps its `null`.
 */
export function removeStrictNullPlaceholders(args: unknown, schema: Record<string, unknown>): unknown {
  const definitions = isPlainObject(schema.$defs) ? schema.$defs : {};
  return cleanValue(args, schema, definitions, 0);
}

function cleanValue(value: unknown, schema: unknown, definitions: JsonObject, depth: number): unknown {
  const node = resolveReference(schema, definitions);
  if (!node || depth > MAX_CLEANING_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = branchFor(node, 'array')?.items;
    return items === undefined ? value : value.map((item) => cleanValue(item, items, definitions, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  const objectSchema = branchFor(node, 'object');
  if (!objectSchema || !isPlainObject(objectSchema.properties)) return value;
  const properties = objectSchema.properties;
  const required = Array.isArray(objectSchema.required) ? objectSchema.required : [];
  const cleaned: JsonObject = {};
  for (const [name, item] of Object.entries(value)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (property === undefined) {
      setOwnProperty(cleaned, name, item);
      continue;
    }
    if (item === null && !required.includes(name)) {
      const propertySchema = resolveReference(property, definitions);
      if (propertySchema && !acceptsNullOrAnything(propertySchema, definitions)) continue;
    }
    setOwnProperty(cleaned, name, cleanValue(item, property, definitions, depth + 1));
  }
  return cleaned;
}

function resolveReference(schema: unknown, definitions: JsonObject): JsonObject | undefined {
  let node = schema;
  for (let hop = 0; hop < MAX_CLEANING_DEPTH && isPlainObject(node) && typeof node.$ref === 'string'; hop += 1) {
    const name = node.$ref.startsWith('#/$defs/') ? node.$ref.slice('#/$defs/'.length) : undefined;
    const key = name?.replace(/~1/g, '/').replace(/~0/g, '~');
    node = key !== undefined && Object.hasOwn(definitions, key) ? definitions[key] : undefined;
  }
  return isPlainObject(node) ? node : undefined;
}

/** The schema itself, or its one `anyOf` branch, that describes values of `type`. */
function branchFor(node: JsonObject, type: 'object' | 'array'): JsonObject | undefined {
  if (typeList(node).includes(type)) return node;
  if (type === 'object' && isPlainObject(node.properties)) return node;
  if (!Array.isArray(node.anyOf)) return undefined;
  const matching = node.anyOf.filter((branch) => isPlainObject(branch) && typeList(branch).includes(type));
  return matching.length === 1 ? (matching[0] as JsonObject) : undefined;
}

function acceptsNullOrAnything(schema: JsonObject, definitions: JsonObject): boolean {
  const constraints = Object.keys(schema).filter((keyword) => keyword !== 'description' && keyword !== 'title');
  if (constraints.length === 0) return true;
  if (acceptsNull(schema)) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null) && !('type' in schema)) return true;
  if (Array.isArray(schema.anyOf)) {
    return schema.anyOf.some((branch) => {
      const resolved = resolveReference(branch, definitions);
      return resolved !== undefined && acceptsNullOrAnything(resolved, definitions);
    });
  }
  return false;
}
