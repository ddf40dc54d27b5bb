/**
 * Checks the model's arguments against the tool's `inputSchema` before the call is sent, with a real JSON Schema
 * validator (Ajv, the dialect the schema names; 2020-12 when it names none, as MCP says; draft-04's boolean exclusive
 * bounds read as the 2020-12 numbers, as the providers read them). Arguments that do not fit never reach the server:
 * the model gets an error result naming each failing field, so it can correct them.
 *
 * Server-written `pattern`s run on a linear-time engine (RE2), so no pattern can stall the host on a long argument.
 *
 * A schema the validator cannot compile (an unknown dialect, a broken `$ref`, a pattern RE2 cannot read)
 * must not make the tool unusable: its calls are forwarded unchecked, with one warning per tool definition.
 * Schemas are compiled on a tool's first call, not when the catalog is built, and Ajv itself is loaded then too,
 * so start-up pays nothing (commands that call no tool never load it); a caller about to call one may load it ahead.
 */

import type { ErrorObject, ValidateFunction } from 'ajv';
import { withExclusiveBoundsAsNumbers } from '../json/draft04-exclusive-bounds.js';
import {
  createJsonSchemaEngine,
  dialectOf,
  type JsonSchemaDialect,
  type JsonSchemaEngine,
} from '../json/json-schema-engines.js';
import { withPrototypePropertyRules } from '../json/prototype-property-rules.js';
import { linearRegExp } from '../text/linear-regexp.js';

type ArgumentCheck =
  /** `warning`: the schema could not be compiled, so the arguments were not checked (given once per schema). */
  { valid: true; warning?: string } | { valid: false; problems: ArgumentProblem[]; message: string };

interface ArgumentProblem {
  /** Where in the arguments: `path`, `items[2].name`, or `(arguments)` for the object as a whole. */
  field: string;
  /** What is wrong there, e.g. `must be string (got a number)`, `is required`. */
  problem: string;
}

export interface ArgumentValidator {
  /** `toolName` is the namespaced name the model called, for the messages. */
  check(toolName: string, schema: unknown, args: Record<string, unknown>): ArgumentCheck;
}

/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED_PROBLEMS = 12;
/** Field names come from the schema and the model: a long one is shortened in the message. */
const MAX_FIELD_LENGTH = 100;

interface Compiled {
  validate?: ValidateFunction;
  /** Why the schema could not be compiled. */
  failure?: string;
  warned: boolean;
}

export function createArgumentValidator(): ArgumentValidator {
  // One validator per dialect, made when first needed. Schemas are not kept by `$id` (`addUsedSchema: false`), so
  // two servers using the same `$id` cannot clash.
  const validators = new Map<JsonSchemaDialect, JsonSchemaEngine>();
  const validatorFor = (dialect: JsonSchemaDialect) => {
    let ajv = validators.get(dialect);
    if (ajv === undefined) {
      const options = {
        strict: false,
        allErrors: true,
        verbose: true,
        validateFormats: false,
        addUsedSchema: false,
        // Checking each schema against the dialect's meta-schema first means compiling that meta-schema, a tenth of
        // a second or more on a tool's first call. Every keyword checks its own value's type when compiled anyway,
        // so a malformed schema still fails to compile (and its tool's calls go unchecked, with the warning).
        validateSchema: false,
        // Only keys the arguments have: read through the prototype, `required: ["constructor"]` held for `{}` and a
        // property named `toString` was checked against Object's own function when the model left it out.
        ownProperties: true,
        logger: false,
        code: { regExp: linearRegExp },
      } as const;
      ajv = createJsonSchemaEngine(dialect, options);
      validators.set(dialect, ajv);
    }
    return ajv;
  };
  // Tool definitions are immutable (a changed one arrives as a new object), so each schema is compiled once.
  const compiled = new WeakMap<object, Compiled>();

  const compile = (schema: object): Compiled => {
    const known = compiled.get(schema);
    if (known !== undefined) return known;
    let entry: Compiled;
    try {
      // A dialect no engine reads is read as MCP's own.
      const { dialect, schema: usable } = dialectOf(schema);
      // Draft-04's `exclusiveMinimum: true` beside a `minimum` is read as the providers read it: no engine here takes
      // a boolean there (draft-04 is read as draft-07), so the schema would not compile and its calls go unchecked.
      // Rules for a parameter named `__proto__` are where the engine reads them (see prototype-property-rules.ts).
      const checkable = withPrototypePropertyRules(withExclusiveBoundsAsNumbers(usable));
      entry = { validate: validatorFor(dialect ?? '2020-12').compile(checkable), warned: false };
    } catch (error) {
      entry = { failure: error instanceof Error ? error.message : String(error), warned: false };
    }
    compiled.set(schema, entry);
    return entry;
  };

  return {
    check(toolName, schema, args) {
      if (typeof schema !== 'object' || schema === null) return uncheckable(toolName, 'it is not a JSON object');
      const entry = compile(schema);
      if (entry.validate === undefined) {
        if (entry.warned) return { valid: true };
        entry.warned = true;
        return uncheckable(toolName, entry.failure ?? 'unknown error');
      }
      let valid: boolean;
      try {
        valid = entry.validate(args) === true;
      } catch (error) {
        // E.g. a recursive schema over arguments nested past the stack: not the model's mistake to correct.
        if (entry.warned) return { valid: true };
        entry.warned = true;
        return uncheckable(toolName, error instanceof Error ? error.message : String(error));
      }
      if (valid) return { valid: true };
      const problems = describeErrors(entry.validate.errors ?? []);
      return { valid: false, problems, message: invalidArgumentsMessage(toolName, problems) };
    },
  };
}

function uncheckable(toolName: string, reason: string): ArgumentCheck {
  return {
    valid: true,
    warning: `${toolName}: its input schema could not be compiled (${oneLine(reason)}), so its arguments are sent unchecked.`,
  };
}

function invalidArgumentsMessage(toolName: string, problems: readonly ArgumentProblem[]): string {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((item) => `- ${item.field}: ${item.problem}`);
  const more = problems.length - listed.length;
  return [
    `The arguments for ${toolName} do not match its input schema, so the call was not sent:`,
    ...listed,
    ...(more > 0 ? [`- … and ${more} more`] : []),
    'Correct them and call the tool again.',
  ].join('\n');
}

/** One problem per field and complaint, in Ajv's order; values the model sent are described by type, not echoed. */
function describeErrors(errors: readonly ErrorObject[]): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // An `if` error says only that its `then` or `else` failed, whose own errors are listed.
    if (error.keyword === 'if') continue;
    const problem = describeError(error);
    const key = `${problem.field}\u0000${problem.problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function describeError(error: ErrorObject): ArgumentProblem {
  const at = pointerToField(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: childField(at, String(params.missingProperty)), problem: 'is required' };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const accepted = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const hint = accepted.length === 0 ? '' : ` (it takes: ${accepted.slice(0, 20).join(', ')})`;
      return {
        field: childField(at, String(params.additionalProperty ?? params.unevaluatedProperty)),
        problem: `is not a parameter of this tool${hint}`,
      };
    }
    case 'type':
      return { field: at ?? '(arguments)', problem: `must be ${String(params.type)} (got ${typeOfValue(error.data)})` };
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return { field: at ?? '(arguments)', problem: `must be one of: ${shortJson(allowed.slice(0, 20))}` };
    }
    case 'const':
      return { field: at ?? '(arguments)', problem: `must be ${shortJson(params.allowedValue)}` };
    default:
      return { field: at ?? '(arguments)', problem: error.message ?? `fails "${error.keyword}"` };
  }
}

/** `/items/2/name` → `items[2].name`; the root → undefined. */
function pointerToField(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  let field = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    field += /^\d+$/.test(segment) ? `[${segment}]` : field === '' ? segment : `.${segment}`;
  }
  return shorten(field);
}

function childField(parent: string | undefined, name: string): string {
  return shorten(parent === undefined ? name : `${parent}.${name}`);
}

function shorten(field: string): string {
  const single = oneLine(field);
  return single.length <= MAX_FIELD_LENGTH ? single : `${single.slice(0, MAX_FIELD_LENGTH - 1)}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function shortJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}
