/**
 * A tool's input schema as OpenAI's function tools take it (Chat Completions, Responses, and local
 * servers that copy Chat), through the one shared per-provider normaliser: an object root with
 * `properties` (OpenAI answers 400 "object schema missing properties" otherwise), a non-object or
 * union root wrapped as `{value: …}`, keywords the target lacks moved into the description, and
 * a stable key order so the same tool always serialises to the same bytes.
 *
 * Strict mode is opt-in (`strictTools` on the provider): it tells the model nothing the schema does
 * not already say, costs about ten tokens per tool on every turn (`additionalProperties: false` on
 * each object, every optional property spelled required and nullable, which the model must then
 * fill with nulls), and OpenAI does not hold parallel calls to it, which the host asks for. The host
 * validates arguments before a call either way. When asked for, `toStrictSchema` tries the conversion
 * and a schema that cannot be strict is sent as normalised with `strict: false`.
 */
import { deepFreeze } from '../../json/deep-freeze.js';
import { normaliseToolSchema, toStrictSchema } from '../schema/index.js';

/** The normaliser's targets an OpenAI-protocol adapter sends to. */
type OpenAiSchemaTarget = 'openai-chat' | 'openai-responses' | 'openai-compatible';

export interface OpenAiFunctionSchema {
  /** What goes in the request's `parameters`. */
  parameters: Record<string, unknown>;
  strict: boolean;
  /** True when the root was wrapped as `{value: …}`: the model's arguments are unwrapped before the call. */
  wrapped: boolean;
  /** The normalised, non-strict schema: what strict `null` placeholders are judged against. */
  normalised: Record<string, unknown>;
}

/** Parameters plus the strict flag: strict when allowed and the schema can be made strict. */
export function toOpenAiFunctionSchema(
  schema: Readonly<Record<string, unknown>>,
  settings: { allowStrict: boolean; target?: OpenAiSchemaTarget; toolName?: string },
): OpenAiFunctionSchema {
  const target = settings.target ?? 'openai-chat';
  const translation = normaliseToolSchema(schema, target, settings.toolName);
  if (!settings.allowStrict) {
    return {
      parameters: translation.schema,
      strict: false,
      wrapped: translation.wrapped,
      normalised: translation.schema,
    };
  }
  // The strict form is derived from the (cached, immutable) normalised one, so it is kept beside it.
  let strict = strictForms.get(translation);
  if (strict === undefined) {
    const strictSchema = toStrictSchema(translation.schema);
    strict = strictSchema !== undefined && everyObjectClosed(strictSchema) ? deepFreeze(strictSchema) : null;
    strictForms.set(translation, strict);
  }
  return {
    parameters: strict ?? translation.schema,
    strict: strict !== null,
    wrapped: translation.wrapped,
    normalised: translation.schema,
  };
}

/** Each normalised translation's strict form, or null when it cannot be strict. */
const strictForms = new WeakMap<object, Record<string, unknown> | null>();

/**
 * OpenAI rejects the whole request when any object in a strict schema is left open (no
 * `additionalProperties: false`, or a property not in `required`). A union of objects that still
 * says `type: 'object'` itself (what a wrapped union root becomes) is such an object; rather than
 * risk the 400, the tool goes with `strict: false`.
 */
function everyObjectClosed(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(everyObjectClosed);
  if (!isRecord(node)) return true;
  const type = node.type;
  const isObject = type === 'object' || isRecord(node.properties);
  if (isObject) {
    if (node.additionalProperties !== false) return false;
    const properties = isRecord(node.properties) ? Object.keys(node.properties) : [];
    const required = Array.isArray(node.required) ? node.required : [];
    if (properties.some((name) => !required.includes(name))) return false;
  }
  const children = [
    ...(isRecord(node.properties) ? Object.values(node.properties) : []),
    ...(isRecord(node.$defs) ? Object.values(node.$defs) : []),
    node.items,
    node.anyOf,
  ];
  return children.every(everyObjectClosed);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
