/**
 * Which of Gemini's two fields a tool's schema travels in, and in what form.
 *
 * `parametersJsonSchema` takes JSON Schema; `parameters` takes Gemini's own `Schema` type, a small OpenAPI 3.0
 * subset, and answers 400 to much of what MCP servers publish: a key it does not know (`additionalProperties`,
 * `$ref`, `const`…), a list of types, an enum of numbers, a string format other than `date-time`, an object without
 * properties, an array without `items`, a schema without a type. `parameters` is two tokens shorter per tool, and
 * takes string lengths as keywords (which the JSON Schema field is not documented to take, so there they are
 * written into the description, three tokens more each), so a schema goes there when every node of it lies in the
 * subset below, which that field is documented to take and the SDK passes on unchanged (type names already
 * upper-case). The model is told the same in either field. (Unverified against the real API: no provider can be
 * reached from here.)
 */

import { setOwnProperty } from '../../json/own-property.js';
import { isPlainObject, type JsonObject } from './json-value.js';
import { normaliseToolSchema } from './normalise-tool-schema.js';
import { MAX_SCHEMA_DEPTH } from './schema-rules.js';
import { takesNoParameters } from './takes-no-parameters.js';

/** The fields of a function declaration that carry its parameters: none, `parameters` or `parametersJsonSchema`. */
export interface GeminiParameterFields {
  parameters?: JsonObject;
  parametersJsonSchema?: JsonObject;
}

/** JSON Schema's type names as Gemini's `Type` enum spells them (`null` has no place in the subset). */
const GEMINI_TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** The keywords a node of each type may hold in the subset, besides `type`, `title` and `description`. */
const KEYWORDS_BY_TYPE: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['enum', 'format', 'minLength', 'maxLength']),
  number: new Set(['format', 'minimum', 'maximum']),
  integer: new Set(['format', 'minimum', 'maximum']),
  boolean: new Set(),
  array: new Set(['items', 'minItems', 'maxItems']),
  object: new Set(['properties', 'required']),
};

/** The formats Gemini takes for each type in `parameters` (any other string format answers 400). */
const FORMATS_BY_TYPE: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};

/** A tool's parameter fields, and whether its schema root was wrapped as `{value: …}` (see `unwrapArguments`). */
export interface GeminiToolParameters {
  fields: GeminiParameterFields;
  wrapped: boolean;
}

/**
 * The fields for a tool's input schema: none for a tool that takes no parameters, `parameters` when the schema,
 * normalised for that field, lies in the subset, else `parametersJsonSchema` with the schema normalised for Gemini's
 * JSON Schema. Both normalisations are kept per schema, so the tools of every turn cost nothing more.
 */
export function geminiToolParameters(inputSchema: unknown, toolName?: string): GeminiToolParameters {
  const forParameters = normaliseToolSchema(inputSchema, 'gemini-parameters', toolName);
  const { wrapped } = forParameters;
  if (takesNoParameters(forParameters.schema)) return { fields: {}, wrapped };
  const parameters = toGeminiSchema(forParameters.schema, 0);
  if (parameters) return { fields: { parameters }, wrapped };
  return { fields: { parametersJsonSchema: normaliseToolSchema(inputSchema, 'gemini', toolName).schema }, wrapped };
}

/** The node in Gemini's `Schema` spelling, or undefined when it (or anything under it) lies outside the subset. */
function toGeminiSchema(node: unknown, depth: number): JsonObject | undefined {
  if (depth > MAX_SCHEMA_DEPTH || !isPlainObject(node) || typeof node.type !== 'string') return undefined;
  const type = node.type;
  const allowed = KEYWORDS_BY_TYPE[type];
  const typeName = GEMINI_TYPE_NAMES[type];
  if (!allowed || !typeName) return undefined;
  const result: JsonObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    const converted =
      keyword === 'type'
        ? typeName
        : keyword === 'title' || keyword === 'description'
          ? typeof value === 'string'
            ? value
            : undefined
          : allowed.has(keyword)
            ? convertKeyword(keyword, value, type, depth)
            : undefined;
    if (converted === undefined) return undefined;
    result[keyword] = converted;
  }
  // Gemini refuses an object without properties, a required name it does not declare, and an array without items.
  if (type === 'object') {
    const properties = result.properties;
    if (!isPlainObject(properties)) return undefined;
    const required = Array.isArray(result.required) ? result.required : [];
    if (!required.every((name) => Object.hasOwn(properties, name))) return undefined;
  }
  if (type === 'array' && !('items' in result)) return undefined;
  return result;
}

function convertKeyword(keyword: string, value: unknown, type: string, depth: number): unknown {
  switch (keyword) {
    case 'enum':
      return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')
        ? value
        : undefined;
    case 'format':
      return typeof value === 'string' && FORMATS_BY_TYPE[type]?.has(value) ? value : undefined;
    case 'minimum':
    case 'maximum':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'minItems':
    case 'maxItems':
    case 'minLength':
    case 'maxLength':
      return Number.isSafeInteger(value) && (value as number) >= 0 ? value : undefined;
    case 'items':
      return toGeminiSchema(value, depth + 1);
    case 'properties':
      return convertProperties(value, depth);
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string') ? value : undefined;
    default:
      return undefined;
  }
}

function convertProperties(value: unknown, depth: number): JsonObject | undefined {
  if (!isPlainObject(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length === 0) return undefined;
  const properties: JsonObject = {};
  for (const [name, schema] of entries) {
    const converted = toGeminiSchema(schema, depth + 1);
    if (!converted) return undefined;
    setOwnProperty(properties, name, converted);
  }
  return properties;
}
