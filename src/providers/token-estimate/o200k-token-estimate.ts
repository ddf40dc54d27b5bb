/**
 * Offline token estimates for tool definitions and text. Tool definitions are expensive (about a
 * thousand tokens per tool on real servers) and no provider offers an offline count, so budgets and
 * "too many tools" decisions use the `o200k_base` encoding (OpenAI's current one) as an
 * approximation for every provider. Only that encoding's module is loaded, and only on the first count: its
 * rank table takes longer to load than the rest of the CLI, and most commands never count a token.
 */

import { createRequire } from 'node:module';
import { geminiParameterFields, normaliseToolSchema, type SchemaTarget } from '../schema/index.js';
import type { ToolDefinition } from '../types.js';

/** Text like `<|endoftext|>` in a tool description is counted as text, never rejected. */
const countAsText = { disallowedSpecial: new Set<string>() };

type O200kBase = typeof import('gpt-tokenizer/encoding/o200k_base');
let o200kBase: O200kBase | undefined;

/** Loaded synchronously (the package's CommonJS build) so that every estimate stays a plain function. */
function encoding(): O200kBase {
  o200kBase ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200kBase;
  return o200kBase;
}

export function estimateTextTokens(text: string): number {
  return text === '' ? 0 : encoding().countTokens(text, countAsText);
}

/**
 * Tokens of the JSON the provider receives for this tool: its wrapper shape with the schema as
 * normalised for `target` (default `openai-chat`). Providers add some framing of their own, which
 * no one documents; the estimate leaves it out.
 */
export function estimateToolTokens(tool: ToolDefinition, target: SchemaTarget = 'openai-chat'): number {
  return estimateTextTokens(providerToolJson(tool, target));
}

/**
 * Whether the tool list costs more than `limit` tokens, as {@link estimateToolListTokens} counts them. Every token
 * of a byte-level encoding covers at least one byte, so a list whose JSON is no longer than `limit` bytes is
 * decided without loading the encoding (the usual case: a few small servers).
 */
export function toolListTokensExceed(
  tools: readonly ToolDefinition[],
  limit: number,
  target: SchemaTarget = 'openai-chat',
): boolean {
  const texts = tools.map((tool) => providerToolJson(tool, target));
  const bytes = texts.reduce((total, text) => total + Buffer.byteLength(text), 0);
  if (bytes <= limit) return false;
  return texts.reduce((total, text) => total + estimateTextTokens(text), 0) > limit;
}

function providerToolJson(tool: ToolDefinition, target: SchemaTarget): string {
  const { schema } = normaliseToolSchema(tool.inputSchema, target, tool.name);
  return JSON.stringify(providerToolShape(tool, schema, target));
}

/** The sum over a tool list, as offered on every request. */
export function estimateToolListTokens(tools: readonly ToolDefinition[], target: SchemaTarget = 'openai-chat'): number {
  return tools.reduce((total, tool) => total + estimateToolTokens(tool, target), 0);
}

function providerToolShape(tool: ToolDefinition, schema: Record<string, unknown>, target: SchemaTarget): unknown {
  const description = tool.description === '' ? {} : { description: tool.description };
  switch (target) {
    case 'anthropic':
      return { name: tool.name, ...description, input_schema: schema };
    case 'gemini':
      return { name: tool.name, ...description, ...geminiParameterFields(schema) };
    case 'openai-responses':
      return { type: 'function', name: tool.name, ...description, parameters: schema, strict: false };
    case 'openai-chat':
    case 'openai-compatible':
      return { type: 'function', function: { name: tool.name, ...description, parameters: schema } };
  }
}
