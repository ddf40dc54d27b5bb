/**
 * Rewrites one schema node (and everything under it) into what a target provider accepts.
 *
 * The rules come from `schema-rules.ts`; this file applies them in a fixed order: references,
 * `allOf`, OpenAPI's `nullable`, `oneOf`, `const`/`enum`, `type`, numeric bounds, `format`, defaults, children, then
 * whatever keyword the target still does not know, which is written into the description. The node
 * passed in is never modified: shared definitions may be visited many times.
 */

import { exclusiveBoundsAsNumbers } from '../../json/draft04-exclusive-bounds.js';
import { setOwnProperty } from '../../json/own-property.js';
import { DescriptionAdditions, formatDescribedValue } from './describe-constraints.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { isPlainObject, type JsonObject, jsonEqual, TYPE_NAMES, typeList } from './json-value.js';
import { mergeAllOf } from './merge-all-of.js';
import { tightenNumericBounds } from './numeric-bounds.js';
import {
  ANNOTATION_KEYWORDS,
  acceptNull,
  constToEnum,
  describeAnnotations,
  normaliseType,
  splitNullFromEnum,
  tupleToPrefixItems,
  typeOfValues,
} from './rewrite-keywords.js';
import { orderSchemaKeys } from './schema-key-order.js';
import type { DefinitionRegistry, SchemaDefinition } from './schema-references.js';
import { MAX_SCHEMA_DEPTH, RECURSION_EXPANSION_LIMIT, type SchemaRules } from './schema-rules.js';

export interface NormaliseContext {
  readonly rules: SchemaRules;
  readonly notes: string[];
  readonly registry: DefinitionRegistry;
  /** Definitions a kept `$ref` points to, by pointer, in first-use order. */
  readonly referenced: Map<string, SchemaDefinition>;
  /** Pointers of the definitions being expanded on the current path (to bound recursion). */
  readonly expanding: string[];
  /** Bounds the references followed and the nodes normalised inside definitions. */
  readonly budget: ExpansionBudget;
}

/** Keywords that identify or document a schema but do not belong in a provider's copy. */
const METADATA_KEYWORDS = [
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  '$vocabulary',
  '$defs',
  'definitions',
];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];

function where(path: string): string {
  return path === '' ? '(root)' : path;
}

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function normaliseSchemaNode(
  input: unknown,
  context: NormaliseContext,
  path: string,
  depth: number,
): JsonObject {
  // The schema's own nodes are bounded by the message's size; what references bring in is counted.
  if (context.expanding.length > 0) context.budget.step();
  if (depth > MAX_SCHEMA_DEPTH) {
    context.notes.push(`${where(path)}: nested deeper than ${MAX_SCHEMA_DEPTH} levels; offered as any value`);
    return { description: 'Nested too deeply to describe here; any value is accepted.' };
  }
  if (input === true || input === undefined) return {};
  if (input === false) {
    context.notes.push(`${where(path)}: a schema that accepts nothing is offered as an empty schema`);
    return { description: 'No value is accepted here.' };
  }
  if (!isPlainObject(input)) {
    context.notes.push(`${where(path)}: ${formatDescribedValue(input)} is not a schema; offered as any value`);
    return {};
  }
  let node = withoutMetadata(input);
  if ('$ref' in node) return normaliseReference(node, context, path, depth);

  const additions = new DescriptionAdditions();
  const moved: string[] = [];
  if ('allOf' in node && (context.rules.allOf === 'merge' || !Array.isArray(node.allOf))) {
    const { merged, conflicts } = mergeAllOf(
      node,
      (reference) => context.registry.resolve(reference)?.schema,
      context.budget,
    );
    node = withoutMetadata(merged);
    for (const [keyword, value] of conflicts) additions.addConstraint(`allOf ${keyword}`, value);
    if (conflicts.length > 0) moved.push('allOf parts that could not be merged');
    if ('$ref' in node) return normaliseReference(withDescription(node, additions), context, path, depth);
  }
  if ('nullable' in node) {
    const { nullable, ...rest } = node;
    node = nullable === true ? acceptNull(rest) : rest;
  }
  if ('oneOf' in node && context.rules.oneOf === 'any-of') {
    const { oneOf, ...rest } = node;
    if ('anyOf' in rest) {
      additions.addConstraint('oneOf', oneOf);
      moved.push('oneOf');
    } else {
      context.notes.push(`${where(path)}: oneOf sent as anyOf (${context.rules.target} reads it that way)`);
    }
    node = 'anyOf' in rest ? rest : { ...rest, anyOf: oneOf };
  }
  node = exclusiveBoundsAsNumbers(node);
  if (Array.isArray(node.items)) node = tupleToPrefixItems(node);
  if ('const' in node && context.rules.const === 'enum') node = constToEnum(node);
  if (Array.isArray(node.enum) && node.enum.length === 0) {
    // Left by contradicting allOf parts: no provider accepts an empty enum; the server will judge.
    const { enum: _empty, ...rest } = node;
    additions.addSentence('No value satisfies every part of this schema.');
    moved.push('empty enum');
    node = rest;
  }
  if (Array.isArray(node.enum) && context.rules.enumValues === 'strings-and-numbers') {
    const nullBranch = splitNullFromEnum(node, additions);
    if (nullBranch) return normaliseSchemaNode(nullBranch, context, path, depth);
    if (!node.enum.every((value) => typeof value === 'string' || typeof value === 'number')) {
      const { enum: values, ...rest } = node;
      additions.addConstraint('one of', values);
      moved.push('enum');
      node = 'type' in rest ? rest : { ...rest, ...typeOfValues(values as unknown[]) };
    }
  }
  node = normaliseType(node, additions, moved);
  node = tightenNumericBounds(node, context.rules);
  if ('format' in node && (typeof node.format !== 'string' || !context.rules.formats.has(node.format))) {
    const { format, ...rest } = node;
    additions.addConstraint('format', format);
    moved.push('format');
    node = rest;
  }
  node = describeAnnotations(node, context.rules, additions);
  node = normaliseChildren(node, context, path, depth, additions, moved);
  node = moveUnsupportedKeywords(node, context, path, additions, moved);
  node = checkRequired(node, additions, moved);
  if (!('type' in node) && ('properties' in node || 'additionalProperties' in node) && !hasComposition(node)) {
    node.type = 'object';
  }
  if (moved.length > 0) {
    context.notes.push(
      `${where(path)}: moved ${[...new Set(moved)].join(', ')} into the description (${context.rules.target} does not accept it)`,
    );
  }
  return orderSchemaKeys(withDescription(node, additions));
}

function withoutMetadata(input: JsonObject): JsonObject {
  const node = { ...input };
  for (const keyword of METADATA_KEYWORDS) delete node[keyword];
  if ('description' in node && typeof node.description !== 'string') delete node.description;
  if ('title' in node && typeof node.title !== 'string') delete node.title;
  return node;
}

function withDescription(node: JsonObject, additions: DescriptionAdditions): JsonObject {
  if (additions.isEmpty) return node;
  const description = additions.applyTo(node.description);
  return description === undefined ? node : { ...node, description };
}

function normaliseReference(node: JsonObject, context: NormaliseContext, path: string, depth: number): JsonObject {
  const { $ref: reference, ...siblings } = node;
  const definition = typeof reference === 'string' ? context.registry.resolve(reference) : undefined;
  if (!definition) {
    context.notes.push(`${where(path)}: could not resolve $ref ${formatDescribedValue(reference)}; described instead`);
    const additions = new DescriptionAdditions();
    additions.addConstraint('defined at', reference);
    return normaliseSchemaNode(withDescription(siblings, additions), context, path, depth);
  }
  context.budget.step();
  const timesOnPath = context.expanding.filter((pointer) => pointer === definition.pointer).length;
  const hasSiblings = Object.keys(siblings).length > 0;
  if (context.rules.references === 'keep') {
    if (!hasSiblings || timesOnPath > 0) {
      if (hasSiblings) {
        context.notes.push(
          `${where(path)}: kept the recursive $ref; its sibling keywords (${Object.keys(siblings).join(', ')}) were dropped`,
        );
      }
      if (!context.referenced.has(definition.pointer)) context.referenced.set(definition.pointer, definition);
      return { $ref: `#/$defs/${escapePointerSegment(definition.name)}` };
    }
    // Keywords beside a `$ref` are read differently by different validators: expand it once instead.
  } else if (timesOnPath >= RECURSION_EXPANSION_LIMIT) {
    return truncatedRecursion(definition, siblings, context, path);
  }
  context.budget.checkChain(context.expanding.length + 1);
  context.expanding.push(definition.pointer);
  try {
    return normaliseSchemaNode(combineWithSiblings(definition.schema, siblings), context, path, depth);
  } finally {
    context.expanding.pop();
  }
}

function combineWithSiblings(target: unknown, siblings: JsonObject): unknown {
  if (Object.keys(siblings).length === 0) return target;
  if (!isPlainObject(target)) return siblings;
  if (Object.keys(siblings).every((keyword) => ANNOTATION_KEYWORDS.has(keyword))) return { ...target, ...siblings };
  return { allOf: [target, siblings] };
}

function truncatedRecursion(
  definition: SchemaDefinition,
  siblings: JsonObject,
  context: NormaliseContext,
  path: string,
): JsonObject {
  const target = isPlainObject(definition.schema) ? definition.schema : {};
  const types = typeList(target).filter((type) => TYPE_NAMES.has(type));
  const node: JsonObject = {};
  if (types.length > 0) node.type = types.length === 1 ? types[0] : types;
  const description = typeof siblings.description === 'string' ? siblings.description : target.description;
  const limitNote = `"${definition.name}" nests again here; it is not described beyond ${RECURSION_EXPANSION_LIMIT} levels and deeper values are passed on as given.`;
  node.description = typeof description === 'string' && description !== '' ? `${description}\n${limitNote}` : limitNote;
  context.notes.push(
    `${where(path)}: recursive "${definition.name}" cut off after ${RECURSION_EXPANSION_LIMIT} levels`,
  );
  return orderSchemaKeys(node);
}

function normaliseChildren(
  input: JsonObject,
  context: NormaliseContext,
  path: string,
  depth: number,
  additions: DescriptionAdditions,
  moved: string[],
): JsonObject {
  const node = { ...input };
  const child = (value: unknown, childPath: string) => normaliseSchemaNode(value, context, childPath, depth + 1);
  if ('properties' in node) {
    if (isPlainObject(node.properties)) {
      const properties: JsonObject = {};
      for (const [name, schema] of Object.entries(node.properties)) {
        setOwnProperty(properties, name, child(schema, `${path}/properties/${escapePointerSegment(name)}`));
      }
      node.properties = properties;
    } else {
      additions.addConstraint('properties', node.properties);
      moved.push('malformed properties');
      delete node.properties;
    }
  }
  if (isPlainObject(node.additionalProperties)) {
    node.additionalProperties = child(node.additionalProperties, `${path}/additionalProperties`);
  } else if ('additionalProperties' in node && typeof node.additionalProperties !== 'boolean') {
    delete node.additionalProperties;
  }
  if (node.items === true) delete node.items;
  else if (node.items === false) {
    // "Nothing beyond the listed items" is exactly a maximum length, which every target accepts.
    const listed = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
    node.maxItems = typeof node.maxItems === 'number' ? Math.min(node.maxItems, listed) : listed;
    delete node.items;
  } else if (isPlainObject(node.items)) node.items = child(node.items, `${path}/items`);
  if (Array.isArray(node.prefixItems)) {
    node.prefixItems = node.prefixItems.map((item, index) => child(item, `${path}/prefixItems/${index}`));
    if (!context.rules.keywords.has('prefixItems') && 'items' in node) {
      // Without the listed items, `items` would apply to every item: describe it with them.
      additions.addConstraint('items after the listed ones', node.items);
      moved.push('items');
      delete node.items;
    }
  }
  if (isPlainObject(node.patternProperties) && !context.rules.keywords.has('patternProperties')) {
    widenForPatternProperties(node, node.patternProperties, context.budget.compared, (schema, pattern) =>
      child(schema, `${path}/patternProperties/${escapePointerSegment(pattern)}`),
    );
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const branches = node[keyword];
    if (!(keyword in node)) continue;
    if (Array.isArray(branches) && branches.length > 0) {
      node[keyword] = branches.map((branch, index) => child(branch, `${path}/${keyword}/${index}`));
    } else {
      additions.addConstraint(keyword, branches);
      moved.push(`malformed ${keyword}`);
      delete node[keyword];
    }
  }
  return node;
}

/**
 * `patternProperties` is about to be described; keys it matched now fall under `additionalProperties`,
 * which must accept their values or the schema would reject arguments the server accepts.
 */
function widenForPatternProperties(
  node: JsonObject,
  patterns: JsonObject,
  compared: () => void,
  normalise: (schema: unknown, pattern: string) => JsonObject,
): void {
  const additional = node.additionalProperties;
  if (additional === undefined || additional === true) return;
  const accepted: JsonObject[] = isPlainObject(additional) ? [additional] : [];
  for (const [pattern, schema] of Object.entries(patterns)) {
    const normalised = normalise(schema, pattern);
    if (!accepted.some((known) => jsonEqual(known, normalised, compared))) accepted.push(normalised);
  }
  if (accepted.some((schema) => Object.keys(schema).length === 0)) delete node.additionalProperties;
  else node.additionalProperties = accepted.length === 1 ? accepted[0] : { anyOf: accepted };
}

function moveUnsupportedKeywords(
  input: JsonObject,
  context: NormaliseContext,
  path: string,
  additions: DescriptionAdditions,
  moved: string[],
): JsonObject {
  const node = { ...input };
  for (const keyword of Object.keys(node)) {
    if (keyword === 'title' || keyword === 'description' || context.rules.keywords.has(keyword)) continue;
    if (keyword.startsWith('x-')) {
      // Vendor extensions carry tooling data, not rules about the value.
      context.notes.push(`${where(path)}: dropped extension keyword ${keyword}`);
    } else {
      additions.addConstraint(keyword, node[keyword]);
      moved.push(keyword);
    }
    delete node[keyword];
  }
  return node;
}

/** `required` may only name declared properties (several providers reject anything else). */
function checkRequired(input: JsonObject, additions: DescriptionAdditions, moved: string[]): JsonObject {
  if (!('required' in input)) return input;
  const { required, ...node } = input;
  const names = Array.isArray(required)
    ? [...new Set(required.filter((name): name is string => typeof name === 'string'))]
    : [];
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const declared = names.filter((name) => Object.hasOwn(properties, name));
  const undeclared = Array.isArray(required) ? names.filter((name) => !declared.includes(name)) : required;
  if (!Array.isArray(undeclared) || undeclared.length > 0) {
    additions.addConstraint('required keys', undeclared);
    moved.push('required keys without a declared property');
  }
  return declared.length > 0 ? { ...node, required: declared } : node;
}

function hasComposition(node: JsonObject): boolean {
  return SUBSCHEMA_LISTS.some((keyword) => keyword in node) || 'enum' in node || 'const' in node;
}
