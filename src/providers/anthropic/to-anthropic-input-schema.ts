/**
 * Tool input schema → what Anthropic's `input_schema` accepts, through the one shared per-provider
 * normaliser: an object root with `properties`, no `$schema`/`$id`, a non-object or union root
 * wrapped as `{value: …}` (the adapter unwraps the model's arguments before the call), and a stable
 * key order, so the same tool always serialises to the same bytes: a changed tools prefix
 * invalidates the prompt cache.
 */
import { normaliseToolSchema } from '../schema/index.js';

type AnthropicInputSchema = { type: 'object'; [key: string]: unknown };

interface AnthropicToolSchema {
  inputSchema: AnthropicInputSchema;
  /** True when the root was wrapped as `{value: …}`. */
  wrapped: boolean;
}

/** `toolName` names the tool in the error for a schema nested too deep to translate. */
export function toAnthropicToolSchema(
  schema: Readonly<Record<string, unknown>>,
  toolName?: string,
): AnthropicToolSchema {
  const normalised = normaliseToolSchema(schema, 'anthropic', toolName);
  return { inputSchema: normalised.schema as AnthropicInputSchema, wrapped: normalised.wrapped };
}

export function toAnthropicInputSchema(schema: Readonly<Record<string, unknown>>): AnthropicInputSchema {
  return toAnthropicToolSchema(schema).inputSchema;
}
