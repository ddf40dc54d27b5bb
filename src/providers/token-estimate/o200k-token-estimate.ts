/**
 * Offline token estimates for tool definitions and text. Tool definitions are expensive (about a
 * thousand tokens per tool on real servers) and no provider offers an offline count, so budgets and
 * "too many tools" decisions use the `o200k_base` encoding (OpenAI's current one) as an
 * approximation for every provider. Only that encoding's module is loaded, and only on the first count: its
 * rank table takes longer to load than the rest of the CLI, and most commands never count a token.
 */

import { createRequire } from 'node:module';
import { isLowSurrogate } from '../../text/surrogate-pairs.js';
import { geminiToolParameters, normaliseToolSchema, type SchemaTarget } from '../schema/index.js';
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

/**
 * Text is counted a segment at a time: the encoder's merging takes time growing with the square of a run of letters,
 * spaces or punctuation with no break in it, so 100,000 characters of one letter (or Chinese text, which has no
 * spaces) took seconds, and a server's description could stall the host for a minute. A segment ends just before a
 * space that starts a word, where the encoder splits the text too, so ordinary text counts as it would whole; a run
 * with no such place in it is cut where it must be, which may count a token more per cut.
 */
const SEGMENT_CHARACTERS = 500;

export function estimateTextTokens(text: string): number {
  if (text === '') return 0;
  if (text.length <= SEGMENT_CHARACTERS) return encoding().countTokens(text, countAsText);
  let total = 0;
  let start = 0;
  while (start < text.length) {
    const end = segmentEnd(text, start);
    total += encoding().countTokens(text.slice(start, end), countAsText);
    start = end;
  }
  return total;
}

/** Where the segment from `start` ends: before a space that starts a word, else at the limit (never mid-character). */
function segmentEnd(text: string, start: number): number {
  const limit = start + SEGMENT_CHARACTERS;
  if (limit >= text.length) return text.length;
  for (let index = limit; index > start + SEGMENT_CHARACTERS / 2; index -= 1) {
    if (isSpace(text.charCodeAt(index)) && !isSpace(text.charCodeAt(index + 1))) return index;
  }
  const code = text.charCodeAt(limit);
  // The second half of a surrogate pair stays with its first.
  return isLowSurrogate(code) ? limit - 1 : limit;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
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
  return JSON.stringify(providerToolShape(tool, target));
}

/** The sum over a tool list, as offered on every request. */
export function estimateToolListTokens(tools: readonly ToolDefinition[], target: SchemaTarget = 'openai-chat'): number {
  return tools.reduce((total, tool) => total + estimateToolTokens(tool, target), 0);
}

function providerToolShape(tool: ToolDefinition, target: SchemaTarget): unknown {
  const description = tool.description === '' ? {} : { description: tool.description };
  // Gemini's schema may take one of two forms, chosen from the input schema.
  if (target === 'gemini')
    return { name: tool.name, ...description, ...geminiToolParameters(tool.inputSchema, tool.name).fields };
  const { schema } = normaliseToolSchema(tool.inputSchema, target, tool.name);
  switch (target) {
    case 'anthropic':
      return { name: tool.name, ...description, input_schema: schema };
    case 'openai-responses':
      return { type: 'function', name: tool.name, ...description, parameters: schema, strict: false };
    case 'openai-chat':
    case 'openai-compatible':
      return { type: 'function', function: { name: tool.name, ...description, parameters: schema } };
  }
}
