/**
 * The cost counter: priced from the built-in table or the config's `modelPrices` (which wins), cached input at its
 * own price, and no figure at all for a model whose price is not known. A bad `modelPrices` is refused by name.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { costOf, KNOWN_MODEL_PRICES_DATE } from '../../src/providers/model-prices.js';
import { thrownConfigError } from '../helpers/config-errors.js';

const FILE = path.resolve('/projects/demo/mcp-host.json');
const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 };

function configError(modelPrices: unknown): string {
  return thrownConfigError(() => parseConfig(JSON.stringify({ mcpServers: {}, modelPrices }), FILE, {})).message;
}

describe('model prices', () => {
  it('prices a known model from the table, with the cached input at its own price and the table date', () => {
    // 600,000 × $3 + 400,000 × $0.30 + 100,000 × $15, per million.
    const cost = costOf('anthropic:claude-sonnet-4-5', usage);
    expect(cost).toEqual({
      known: true,
      usd: expect.closeTo(1.8 + 0.12 + 1.5, 10),
      source: 'table',
      pricesDate: KNOWN_MODEL_PRICES_DATE,
    });
  });

  it("takes the config's price over the table's, and knows no price for any other model", () => {
    const overrides = { 'anthropic:claude-sonnet-4-5': { inputPerMillion: 1, outputPerMillion: 2 } };
    expect(costOf('anthropic:claude-sonnet-4-5', usage, overrides)).toEqual({
      known: true,
      usd: expect.closeTo(1 + 0.2, 10),
      source: 'config',
    });
    expect(costOf('openai:some-new-model', usage, overrides)).toEqual({ known: false });
    expect(costOf('scripted:inventory.json', usage)).toEqual({ known: false });
    expect(costOf('toString', usage)).toEqual({ known: false });
  });

  it('reads modelPrices from the config and refuses a bad one, naming where', () => {
    const prices = { 'openai:gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 } };
    expect(parseConfig(JSON.stringify({ mcpServers: {}, modelPrices: prices }), FILE, {}).modelPrices).toEqual(prices);
    expect(configError({ 'openai:gpt-4.1': { inputPerMillion: -1, outputPerMillion: 8 } })).toMatch(
      /modelPrices.*inputPerMillion[\s\S]*not negative/,
    );
    expect(configError({ 'gpt-4.1': { inputPerMillion: 1, outputPerMillion: 8 } })).toMatch(/provider:model/);
    expect(configError({ 'openai:gpt-4.1': { inputPerMillion: 1, outputPerMillion: 8, perRequest: 1 } })).toMatch(
      /modelPrices[\s\S]*perRequest/,
    );
    expect(configError({ 'openai:gpt-4.1': { inputPerMillion: '1', outputPerMillion: 8 } })).toMatch(
      /US dollars per million tokens/,
    );
  });
});
