/**
 * The mock's reading of a function declaration's legacy `parameters`: Gemini's `Schema` type (an OpenAPI 3.0
 * subset, parsed as a protocol buffer), refused with the messages the real API is reported to give. A host that sends
 * there something the real API would answer with 400 gets the same 400 here.
 *
 * Written from the API's documented `Schema` fields and the refusals users report (unknown keys, a list of types, an
 * enum of numbers, a string format other than `enum`/`date-time`, an object without properties, an array without
 * `items`, a schema without a type, a required name that is not declared); the real API may refuse more.
 */

type Json = Record<string, unknown>;

/** The fields of Gemini's `Schema` message; any other key is an unknown field. */
const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const TYPE_VALUES = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const STRING_FORMATS = new Set(['enum', 'date-time']);
/** Far deeper than any schema a test sends; keeps a hostile body from exhausting the stack. */
const MAX_DEPTH = 100;

/** Throws the API's 400 message for the first problem found in `schema` at `where`. */
export function checkGeminiParameters(schema: unknown, where: string): void {
  checkNode(schema, where, 0);
}

function checkNode(node: unknown, where: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new Error(`${where}: the schema is nested too deeply`);
  if (!isJson(node))
    throw new Error(`Invalid value at '${where}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema)`);
  for (const key of Object.keys(node)) {
    if (!SCHEMA_FIELDS.has(key)) {
      throw new Error(`Invalid JSON payload received. Unknown name "${key}" at '${where}': Cannot find field.`);
    }
  }
  const type = node.type;
  if (Array.isArray(type)) {
    throw new Error(
      `Invalid JSON payload received. Unknown name "type" at '${where}': Proto field is not repeating, cannot start list.`,
    );
  }
  if (type === undefined && node.anyOf === undefined) {
    throw new Error(`${where}: the schema didn't specify the schema type field`);
  }
  if (type !== undefined && (typeof type !== 'string' || !TYPE_VALUES.has(type))) {
    throw new Error(
      `Invalid value at '${where}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(type)}`,
    );
  }
  if (node.enum !== undefined) {
    const values = Array.isArray(node.enum) ? node.enum : [node.enum];
    values.forEach((value, index) => {
      if (typeof value !== 'string')
        throw new Error(`Invalid value at '${where}.enum[${index}]' (TYPE_STRING), ${value}`);
    });
  }
  if (type === 'STRING' && node.format !== undefined && !STRING_FORMATS.has(node.format as string)) {
    throw new Error(`${where}.format: only 'enum' and 'date-time' are supported for STRING type`);
  }
  if (type === 'OBJECT') checkObject(node, where, depth);
  if (type === 'ARRAY') {
    if (node.items === undefined) throw new Error(`${where}.items: missing field.`);
    checkNode(node.items, `${where}.items`, depth + 1);
  }
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf)) throw new Error(`${where}.any_of: must be a list`);
    for (const [index, branch] of node.anyOf.entries()) checkNode(branch, `${where}.any_of[${index}]`, depth + 1);
  }
}

function checkObject(node: Json, where: string, depth: number): void {
  const properties = node.properties;
  if (!isJson(properties) || Object.keys(properties).length === 0) {
    throw new Error(`${where}.properties: should be non-empty for OBJECT type`);
  }
  for (const [name, schema] of Object.entries(properties)) checkNode(schema, `${where}.properties[${name}]`, depth + 1);
  if (node.required !== undefined) {
    const required = Array.isArray(node.required) ? node.required : [node.required];
    required.forEach((name, index) => {
      if (typeof name !== 'string' || !Object.hasOwn(properties, name)) {
        throw new Error(`${where}.required[${index}]: property is not defined`);
      }
    });
  }
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
