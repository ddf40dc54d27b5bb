/**
 * Anthropic usage → neutral Usage. Anthropic's `input_tokens` counts only the uncached part of the
 * prompt; the neutral `inputTokens` is the whole prompt (as OpenAI and Gemini report it), so cache
 * reads and writes are added in and also reported on their own.
 */
import type { Usage } from '../types.js';

export interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

export function mapAnthropicUsage(usage: AnthropicUsageFields): Usage {
  const cacheReadTokens = usage.cache_read_input_tokens ?? 0;
  const cacheWriteTokens = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage.input_tokens ?? 0) + cacheReadTokens + cacheWriteTokens,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens,
    cacheWriteTokens,
  };
}
