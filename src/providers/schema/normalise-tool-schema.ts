/**
 * Turns an MCP tool's `inputSchema` into the schema one provider accepts.
 *
 * MCP lets a server publish any JSON Schema; each provider accepts only part of JSON Schema and
 * rejects the whole request (every tool, every turn) when one schema is off. This is the single place
 * that closes the gap: root rules, references, composition, and keywords the target lacks, which are
 * moved into the description rather than dropped. A root that is not an object is wrapped as
 * `{value: …}` and `unwrapArguments` undoes it, so the server receives the shape it declared.
 */

import { deepFreeze } from '../../json/deep-freeze.js';
import { setOwnProperty } from '../../json/own-property.js';
import { DescriptionAdditions, describeRequiredGroups } from './describe-constraints.js';
import { ExpansionBudget, SchemaExpansionError } from './expansion-budget.js';
import { cloneJson, isPlainObject, type JsonObject, typeList } from './json-value.js';
import { mergeAllOf } from './merge-all-of.js';
import { escapePointerSegment, type NormaliseContext, normaliseSchemaNode } from './normalise-node.js';
import { orderSchemaKeys } from './schema-key-order.js';
import { DefinitionRegistry } from './schema-references.js';
import { GEMINI_PARAMETERS_RULES, SCHEMA_RULES, type SchemaRules, type SchemaTarget } from './schema-rules.js';

export interface NormalisedSchema {
  /** The schema to send: root `type: 'object'`, stable key order, JSON only. */
  schema: Record<string, unknown>;
  /** True when the original root was wrapped as `{value: …}`; pass it to `unwrapArguments`. */
  wrapped: boolean;
  /** What was changed and why, one line each, for `--trace` and debugging. */
  notes: string[];
}

/**
 * A provider's target, or `gemini-parameters`: Gemini's legacy `parameters` field, which takes a little more than its
 * JSON Schema field (`GEMINI_PARAMETERS_RULES`).
 */
export type NormaliseTarget = SchemaTarget | 'gemini-parameters';

function rulesFor(target: NormaliseTarget): SchemaRules {
  return target === 'gemini-parameters' ? GEMINI_PARAMETERS_RULES : SCHEMA_RULES[target];
}

/** The property a wrapped (non-object) root travels in. */
export const WRAPPED_ARGUMENT_NAME = 'value';

/** Keywords that make a schema without `type` describe an object. */
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames'];
/** Keywords that make a schema without `type` describe something else (or a union). */
const NON_OBJECT_KEYWORDS = ['anyOf', 'oneOf', 'enum', 'const', 'items', 'prefixItems', 'not'];
/** Bound on chains of root references (`$ref` to a `$ref` to …). */
const MAX_ROOT_REFERENCE_HOPS = 8;

/**
 * `toolName` names the tool in the error for a schema nested deeper than `MAX_JSON_DEPTH` levels, which is
 * refused (a `JsonTooDeepError`), as the host refuses a server's message nested that deep: no server's schema
 * reaches here that deep, but a library caller's own tool definition can. A schema whose `$ref`/`allOf` resolution
 * passes the bounds of `expansion-budget.ts` is refused the same way, with a `SchemaExpansionError` naming the tool.
 */
export function normaliseToolSchema(schema: unknown, target: NormaliseTarget, toolName?: string): NormalisedSchema {
  const cacheable = typeof schema === 'object' && schema !== null;
  const known = cacheable ? translated.get(schema)?.[target] : undefined;
  if (known !== undefined) return known;
  const what = toolName === undefined ? 'the input schema' : `the input schema of tool ${JSON.stringify(toolName)}`;
  let normalised: NormalisedSchema;
  try {
    normalised = normaliseWithinBudget(schema, target, what);
  } catch (error) {
    throw error instanceof SchemaExpansionError ? error.naming(what) : error;
  }
  if (cacheable) {
    const byTarget = translated.get(schema) ?? {};
    byTarget[target] = deepFreeze(normalised);
    translated.set(schema, byTarget);
  }
  return normalised;
}

/**
 * Translations made, by input schema and target. The same tools go out on every model turn and a tool's definition
 * does not change (a changed one arrives as a new object), so each is translated once: 1–3 ms a turn for 100 tools
 * otherwise. Results are frozen, since every later request shares them.
 */
const translated = new WeakMap<object, Partial<Record<NormaliseTarget, NormalisedSchema>>>();

function normaliseWithinBudget(schema: unknown, target: NormaliseTarget, what: string): NormalisedSchema {
  const notes: string[] = [];
  const document = rootDocument(schema, what, notes);
  const context: NormaliseContext = {
    rules: rulesFor(target),
    notes,
    registry: new DefinitionRegistry(document),
    referenced: new Map(),
    expanding: [],
    budget: new ExpansionBudget(),
  };
  const root = flattenRoot(document, context);
  const shape = classifyRoot(root);
  let output: JsonObject;
  let wrapped = false;
  if (shape.kind === 'object') {
    const normalised = normaliseSchemaNode(shape.schema, context, '', 0);
    const additions = new DescriptionAdditions();
    if (shape.requiredGroups) additions.addSentence(shape.requiredGroups);
    const description = additions.applyTo(normalised.description);
    output = { ...normalised, type: 'object' };
    if (description !== undefined) output.description = description;
    if (!isPlainObject(output.properties)) output.properties = {};
  } else {
    wrapped = true;
    notes.push(`(root): ${shape.reason}; wrapped as {"${WRAPPED_ARGUMENT_NAME}": …} and unwrapped before the call`);
    output = {
      type: 'object',
      properties: { [WRAPPED_ARGUMENT_NAME]: normaliseSchemaNode(root, context, '', 0) },
      required: [WRAPPED_ARGUMENT_NAME],
    };
  }
  const definitions = normaliseDefinitions(context);
  if (Object.keys(definitions).length > 0) output.$defs = definitions;
  return { schema: orderSchemaKeys(output), wrapped, notes };
}

/**
 * Undoes the wrapping `normaliseToolSchema` applied: the model's `{value: x}` becomes `x`. When the
 * model left the wrapper out, the arguments are passed on as they are and the server judges them.
 */
export function unwrapArguments(args: Record<string, unknown>, wrapped: boolean): unknown {
  if (!wrapped) return args;
  return Object.hasOwn(args, WRAPPED_ARGUMENT_NAME) ? args[WRAPPED_ARGUMENT_NAME] : args;
}

function rootDocument(schema: unknown, what: string, notes: string[]): JsonObject {
  if (schema === undefined || schema === true) return {};
  const copy = cloneJson(schema, what);
  if (isPlainObject(copy)) return copy;
  notes.push('(root): the input schema is not a JSON Schema object; the tool is offered without parameters');
  return {};
}

/** Resolves a root `$ref` and merges a root `allOf`: no provider accepts either at the root. */
function flattenRoot(document: JsonObject, context: NormaliseContext): JsonObject {
  let root = document;
  for (let hop = 0; hop < MAX_ROOT_REFERENCE_HOPS && typeof root.$ref === 'string'; hop += 1) {
    const definition = context.registry.resolve(root.$ref);
    if (!definition || !isPlainObject(definition.schema) || definition.pointer === '') break;
    const { $ref: _reference, ...siblings } = root;
    root = { ...definition.schema, ...siblings };
  }
  if ('$ref' in root) {
    // Unresolvable, self-referring or too long a chain: say where the shape is defined.
    const { $ref: reference, ...rest } = root;
    const additions = new DescriptionAdditions();
    additions.addConstraint('defined at', reference);
    root = { ...rest, description: additions.applyTo(rest.description) };
    context.notes.push('(root): could not resolve the root $ref; described instead');
  }
  if (Array.isArray(root.allOf)) {
    const { merged, conflicts } = mergeAllOf(
      root,
      (reference) => context.registry.resolve(reference)?.schema,
      context.budget,
    );
    root = merged;
    if (conflicts.length > 0) {
      const additions = new DescriptionAdditions();
      for (const [keyword, value] of conflicts) additions.addConstraint(`allOf ${keyword}`, value);
      root.description = additions.applyTo(root.description);
      context.notes.push('(root): allOf parts that could not be merged were moved into the description');
    }
  }
  return root;
}

type RootShape = { kind: 'object'; schema: JsonObject; requiredGroups?: string } | { kind: 'wrapped'; reason: string };

function classifyRoot(root: JsonObject): RootShape {
  const types = typeList(root);
  if (types.length > 0) {
    if (!types.includes('object')) return { kind: 'wrapped', reason: `the root type is ${types.join(' or ')}` };
    if (types.some((type) => type !== 'object' && type !== 'null')) {
      return { kind: 'wrapped', reason: `the root may be ${types.join(' or ')}` };
    }
  } else {
    const objectLike = OBJECT_KEYWORDS.some((keyword) => keyword in root);
    const other = NON_OBJECT_KEYWORDS.find((keyword) => keyword in root);
    if (other && !objectLike) return { kind: 'wrapped', reason: `the root is a ${other} schema, not an object` };
  }
  // A nullable root is offered as an object: the model always has arguments to send.
  const schema: JsonObject = { ...root, type: 'object' };
  delete schema.nullable;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (branches === undefined) continue;
    if (!Array.isArray(branches) || !branches.every(isRequiredOnlyBranch)) {
      return { kind: 'wrapped', reason: `the root is a union (${keyword})` };
    }
    delete schema[keyword];
    return { kind: 'object', schema, requiredGroups: describeRequiredGroups(branches, keyword === 'oneOf') };
  }
  return { kind: 'object', schema };
}

function isRequiredOnlyBranch(branch: unknown): branch is JsonObject {
  return (
    isPlainObject(branch) &&
    Array.isArray(branch.required) &&
    Object.keys(branch).every((keyword) => keyword === 'required' || keyword === 'description' || keyword === 'title')
  );
}

/** Normalises every definition a kept `$ref` points to (which may reach further definitions). */
function normaliseDefinitions(context: NormaliseContext): JsonObject {
  const done = new Map<string, JsonObject>();
  // `referenced` grows while its definitions are normalised; a Map's iterator visits entries added meanwhile, so
  // each is normalised once, in first-use order, however long a chain of definitions naming the next.
  for (const definition of context.referenced.values()) {
    context.expanding.push(definition.pointer);
    const path = `/$defs/${escapePointerSegment(definition.name)}`;
    done.set(definition.name, normaliseSchemaNode(definition.schema, context, path, 1));
    context.expanding.pop();
  }
  const definitions: JsonObject = {};
  for (const name of [...done.keys()].sort()) setOwnProperty(definitions, name, done.get(name));
  return definitions;
}
