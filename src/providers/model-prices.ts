/**
 * What a conversation cost, where the price of its model is known: a small table of list prices (US dollars per
 * million tokens, as the vendors published them on the date below), which the config's `modelPrices` extends or
 * overrides. A model in neither has no cost: "price unknown" is shown rather than a guess.
 */
import type { ModelPrice } from '../config/types.js';

/** When the prices below were the vendors' list prices. */
export const KNOWN_MODEL_PRICES_DATE = '2025-11-01';

const KNOWN_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'anthropic:claude-opus-4-5': { inputPerMillion: 5, outputPerMillion: 25, cachedInputPerMillion: 0.5 },
  'anthropic:claude-opus-4-1': { inputPerMillion: 15, outputPerMillion: 75, cachedInputPerMillion: 1.5 },
  'anthropic:claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 },
  'anthropic:claude-sonnet-4-0': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 },
  'anthropic:claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5, cachedInputPerMillion: 0.1 },
  'openai:gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  'openai:gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025 },
  'openai:gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'openai:gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  'openai:gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 },
  'openai:gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 },
  'gemini:gemini-2.5-pro': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.31 },
  'gemini:gemini-2.5-flash': { inputPerMillion: 0.3, outputPerMillion: 2.5, cachedInputPerMillion: 0.075 },
};

interface TokenUsage {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the prompt cache. */
  cachedInputTokens: number;
}

type ModelCost = { known: true; usd: number; source: 'config' | 'table'; pricesDate?: string } | { known: false };

/** The price of `provider:model`: the config's first, then the table's. */
function priceOf(
  spec: string,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): { price: ModelPrice; source: 'config' | 'table' } | undefined {
  if (Object.hasOwn(overrides, spec)) return { price: overrides[spec]!, source: 'config' };
  if (Object.hasOwn(KNOWN_MODEL_PRICES, spec)) return { price: KNOWN_MODEL_PRICES[spec]!, source: 'table' };
  return undefined;
}

/** Cache writes are counted as plain input (some vendors charge more for them: the figure is a floor there). */
export function costOf(spec: string, usage: TokenUsage, overrides?: Readonly<Record<string, ModelPrice>>): ModelCost {
  const found = priceOf(spec, overrides);
  if (found === undefined) return { known: false };
  const { price } = found;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const usd =
    ((usage.inputTokens - cached) * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      usage.outputTokens * price.outputPerMillion) /
    1_000_000;
  return {
    known: true,
    usd,
    source: found.source,
    ...(found.source === 'table' ? { pricesDate: KNOWN_MODEL_PRICES_DATE } : {}),
  };
}
