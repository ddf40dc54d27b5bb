/**
 * Checks a tool schema (and name) against what a provider accepts, without asking the provider.
 *
 * No provider can be reached from the machines this is built on, so PROVIDERS.md's rules are
 * encoded here and the tests hold every normalised schema to them. An empty list means "no known
 * problem"; each entry names the path and what is wrong.
 */

import { isPlainObject, type JsonObject, TYPE_NAMES } from './json-value.js';
import { SCHEMA_RULES, type SchemaTarget } from './schema-rules.js';

const ALWAYS_ALLOWED = new Set(['title', 'description']);

export function checkProviderSchema(schema: unknown, target: SchemaTarget): string[] {
  const problems: string[] = [];
  if (!isPlainObject(schema)) return ['(root): the schema is not an object'];
  if (schema.type !== 'object') problems.push(`(root): type must be "object", found ${JSON.stringify(schema.type)}`);
  if (!isPlainObject(schema.properties)) problems.push('(root): "properties" must be present (an object)');
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const', '$ref']) {
    if (keyword in schema) problems.push(`(root): "${keyword}" is not accepted at the root`);
  }
  const definitions = schema.$defs;
  if (definitions !== undefined) {
    if (SCHEMA_RULES[target].references === 'inline') problems.push('(root): $defs must be inlined for this target');
    if (!isPlainObject(definitions)) problems.push('(root): $defs must be an object');
  }
  const definitionNames = isPlainObject(definitions) ? new Set(Object.keys(definitions)) : new Set<string>();
  const { $defs: _definitions, ...body } = schema;
  checkNode(body, '', target, definitionNames, problems);
  if (isPlainObject(definitions)) {
    for (const [name, definition] of Object.entries(definitions)) {
      checkNode(definition, `/$defs/${name}`, target, definitionNames, problems);
    }
  }
  checkJsonOnly(schema, '', problems);
  return problems;
}

/** Problems with a tool name for a target (empty = accepted). */
export function checkToolName(name: string, target: SchemaTarget): string[] {
  const rule = SCHEMA_RULES[target].toolName;
  if (name.length > rule.maxLength) return [`tool name "${name}" is longer than ${rule.maxLength} characters`];
  if (!rule.pattern.test(name)) return [`tool name "${name}" breaks ${target}'s naming rule: ${rule.rule}`];
  return [];
}

function checkNode(node: unknown, path: string, target: SchemaTarget, definitions: Set<string>, problems: string[]) {
  const at = path === '' ? '(root)' : path;
  if (!isPlainObject(node)) {
    problems.push(`${at}: a schema must be an object, found ${JSON.stringify(node)}`);
    return;
  }
  const rules = SCHEMA_RULES[target];
  for (const keyword of Object.keys(node)) {
    if (keyword === '$schema' || keyword === '$id') problems.push(`${at}: "${keyword}" must be stripped`);
    else if (keyword === 'definitions')
      problems.push(`${at}: "definitions" is not used; definitions live in root $defs`);
    else if (keyword === '$defs') problems.push(`${at}: $defs is only allowed at the root`);
    else if (!ALWAYS_ALLOWED.has(keyword) && !rules.keywords.has(keyword)) {
      problems.push(`${at}: keyword "${keyword}" is not accepted by ${target}`);
    }
  }
  if ('$ref' in node) checkReference(node, at, target, definitions, problems);
  checkValues(node, at, target, problems);
  for (const [keyword, child] of childSchemas(node)) {
    checkNode(child, `${path}/${keyword}`, target, definitions, problems);
  }
}

function checkReference(
  node: JsonObject,
  at: string,
  target: SchemaTarget,
  definitions: Set<string>,
  problems: string[],
) {
  const reference = node.$ref;
  if (SCHEMA_RULES[target].references === 'inline') {
    problems.push(`${at}: $ref must be inlined for ${target}`);
    return;
  }
  const match = typeof reference === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(reference) : null;
  if (!match?.[1]) problems.push(`${at}: $ref ${JSON.stringify(reference)} must point into the root $defs`);
  else if (!definitions.has(match[1].replace(/~1/g, '/').replace(/~0/g, '~'))) {
    problems.push(`${at}: $ref ${reference} names a definition that does not exist`);
  }
  if (Object.keys(node).length > 1) problems.push(`${at}: $ref must stand alone (siblings are read inconsistently)`);
}

function checkValues(node: JsonObject, at: string, target: SchemaTarget, problems: string[]) {
  const rules = SCHEMA_RULES[target];
  if ('type' in node) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.length === 0 || types.some((type) => typeof type !== 'string' || !TYPE_NAMES.has(type))) {
      problems.push(`${at}: type ${JSON.stringify(node.type)} is not a JSON Schema type`);
    }
    if (new Set(types).size !== types.length) problems.push(`${at}: type lists a name twice`);
  }
  if ('description' in node && typeof node.description !== 'string') problems.push(`${at}: description must be text`);
  if ('format' in node && !(typeof node.format === 'string' && rules.formats.has(node.format))) {
    problems.push(`${at}: format ${JSON.stringify(node.format)} is not accepted by ${target}`);
  }
  if ('enum' in node) {
    if (!Array.isArray(node.enum) || node.enum.length === 0) problems.push(`${at}: enum must be a non-empty array`);
    else if (
      rules.enumValues === 'strings-and-numbers' &&
      !node.enum.every((value) => typeof value === 'string' || typeof value === 'number')
    ) {
      problems.push(`${at}: ${target} enums may only hold strings and numbers`);
    }
  }
  if ('required' in node) {
    const properties = isPlainObject(node.properties) ? node.properties : {};
    if (!Array.isArray(node.required) || !node.required.every((name) => typeof name === 'string')) {
      problems.push(`${at}: required must be a list of property names`);
    } else {
      for (const name of node.required) {
        if (!Object.hasOwn(properties, name)) problems.push(`${at}: required names "${name}", which is not a property`);
      }
    }
  }
  if ('properties' in node && !isPlainObject(node.properties)) problems.push(`${at}: properties must be an object`);
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (keyword in node && (!Array.isArray(node[keyword]) || (node[keyword] as unknown[]).length === 0)) {
      problems.push(`${at}: ${keyword} must be a non-empty array`);
    }
  }
  if ('items' in node && !isPlainObject(node.items)) problems.push(`${at}: items must be a schema object`);
  if ('additionalProperties' in node && typeof node.additionalProperties !== 'boolean') {
    if (!isPlainObject(node.additionalProperties))
      problems.push(`${at}: additionalProperties must be a boolean or schema`);
  }
}

function childSchemas(node: JsonObject): [string, unknown][] {
  const children: [string, unknown][] = [];
  if (isPlainObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) children.push([`properties/${name}`, child]);
  }
  if (isPlainObject(node.items)) children.push(['items', node.items]);
  if (isPlainObject(node.additionalProperties)) children.push(['additionalProperties', node.additionalProperties]);
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    for (const [index, child] of list.entries()) children.push([`${keyword}/${index}`, child]);
  }
  return children;
}

/** Every value must survive JSON: providers receive the schema as JSON text. */
function checkJsonOnly(value: unknown, path: string, problems: string[]) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) problems.push(`${path || '(root)'}: ${value} is not a JSON number`);
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkJsonOnly(item, `${path}/${index}`, problems);
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) checkJsonOnly(item, `${path}/${key}`, problems);
    return;
  }
  problems.push(`${path || '(root)'}: ${typeof value} is not a JSON value`);
}
