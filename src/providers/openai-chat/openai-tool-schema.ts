/**
 * A tool's input schema as OpenAI's function tools take it (Chat Completions and Responses alike):
 * an object root with `properties` (OpenAI answers 400 "object schema missing properties"
 * otherwise), no `$schema`/`$id`, and strict mode when the schema can be made strict.
 *
 * Strict mode makes the model's arguments follow the schema exactly, but only a subset of JSON
 * Schema qualifies (every property required, `additionalProperties: false` …). The SDK's own
 * `toStrictJsonSchema` decides: it throws for a schema that cannot be strict, and such a tool is
 * sent with `strict: false` rather than with a schema changed to mean something else.
 */
import { toStrictJsonSchema } from 'openai/lib/transform';

export interface OpenAiFunctionSchema {
  parameters: Record<string, unknown>;
  strict: boolean;
}

/**
 * The minimal safe rules every OpenAI-protocol server needs. The shared per-provider normaliser in
 * `providers/schema/` (`normaliseToolSchema(schema, target)`) is meant to replace this function.
 */
export function toOpenAiParameters(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const parameters: Record<string, unknown> = structuredClone({ ...schema });
  delete parameters.$schema;
  delete parameters.$id;
  if (parameters.type === undefined) parameters.type = 'object';
  if (parameters.type === 'object' && !isRecord(parameters.properties)) parameters.properties = {};
  return parameters;
}

/** Parameters plus the strict flag: strict when allowed and the SDK can make the schema strict. */
export function toOpenAiFunctionSchema(
  schema: Readonly<Record<string, unknown>>,
  settings: { allowStrict: boolean },
): OpenAiFunctionSchema {
  const parameters = toOpenAiParameters(schema);
  if (!settings.allowStrict) return { parameters, strict: false };
  try {
    const strictSchema = toStrictJsonSchema(parameters as Parameters<typeof toStrictJsonSchema>[0]);
    return { parameters: strictSchema as Record<string, unknown>, strict: true };
  } catch {
    return { parameters, strict: false };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
