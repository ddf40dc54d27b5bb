import * as o200kBase from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { SCHEMA_TARGETS } from '../../../src/providers/schema/index.js';
import {
  estimateTextTokens,
  estimateToolListTokens,
  estimateToolTokens,
  toolListTokensExceed,
} from '../../../src/providers/token-estimate/index.js';
import type { ToolDefinition } from '../../../src/providers/types.js';
import { loadCorpus } from '../schema/corpus.js';

const search: ToolDefinition = {
  name: 'github__search_issues',
  description: 'Search issues and pull requests.',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string' }, sort: { type: 'string', enum: ['created', 'updated'] } },
    required: ['q'],
  },
};

describe('estimateTextTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('hello world')).toBe(2);
    expect(estimateTextTokens('hello world, hello world')).toBeGreaterThan(estimateTextTokens('hello world'));
  });

  it('counts special-token text as text instead of throwing', () => {
    expect(estimateTextTokens('stop at <|endoftext|> please')).toBeGreaterThan(3);
  });
});

describe('estimateToolTokens', () => {
  it('is positive and deterministic for every corpus schema and target', () => {
    for (const entry of loadCorpus()) {
      const tool = { name: entry.name, description: entry.description, inputSchema: entry.inputSchema };
      for (const target of SCHEMA_TARGETS) {
        const first = estimateToolTokens(tool, target);
        expect(first, `${entry.file} for ${target}`).toBeGreaterThan(0);
        expect(estimateToolTokens(structuredClone(tool), target)).toBe(first);
      }
    }
  });

  it('grows with the description and with the schema', () => {
    const base = estimateToolTokens(search);
    const longer = estimateToolTokens({
      ...search,
      description: `${search.description} ${'Also matches labels. '.repeat(20)}`,
    });
    expect(longer).toBeGreaterThan(base + 50);
    const wider = estimateToolTokens({
      ...search,
      inputSchema: {
        ...search.inputSchema,
        properties: { ...(search.inputSchema.properties as object), page: { type: 'integer' } },
      },
    });
    expect(wider).toBeGreaterThan(base);
  });

  it('counts the wrapper each provider receives', () => {
    // The Responses shape carries `strict: false`, Chat nests under `function`: different bytes, different counts.
    expect(estimateToolTokens(search, 'openai-responses')).not.toBe(estimateToolTokens(search, 'anthropic'));
    expect(estimateToolListTokens([search, search], 'gemini')).toBe(2 * estimateToolTokens(search, 'gemini'));
  });
});

describe('toolListTokensExceed', () => {
  it('answers as the count does, on both sides of the limit, for every target', () => {
    const tools = [search, { ...search, name: 'github__get_issue', description: 'One issue, with its comments. ✓' }];
    for (const target of SCHEMA_TARGETS) {
      const tokens = estimateToolListTokens(tools, target);
      const bytes = tools.reduce((total, tool) => total + Buffer.byteLength(JSON.stringify(tool)), 0);
      for (const limit of [0, 1, tokens - 1, tokens, tokens + 1, bytes, 10 * bytes]) {
        expect(toolListTokensExceed(tools, limit, target), `${target}, limit ${limit}`).toBe(tokens > limit);
      }
    }
    expect(toolListTokensExceed([], 0)).toBe(false);
  });
});

describe('long text', () => {
  it('counts ordinary text in segments exactly as whole', () => {
    const prose = 'The inventory server answers how many units of a SKU are in stock. '.repeat(200);
    const whole = o200kBase.countTokens(prose);
    expect(estimateTextTokens(prose)).toBe(whole);
  });

  it('counts a long run with no break in it (one letter, Chinese, spaces) at once, a little over at most', () => {
    for (const run of ['x'.repeat(200_000), '中'.repeat(100_000), ' '.repeat(100_000), '/'.repeat(100_000)]) {
      const counted = estimateTextTokens(run);
      // The encoder alone took minutes on these (its merging grows with the square of the run).
      const slice = run.slice(0, 2_000);
      const perSlice = o200kBase.countTokens(slice);
      expect(counted).toBeGreaterThanOrEqual((perSlice * run.length) / 2_000);
      expect(counted).toBeLessThanOrEqual((perSlice * run.length) / 2_000 + run.length / 250);
    }
  }, 30_000);
});
