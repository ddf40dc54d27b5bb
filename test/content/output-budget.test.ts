/**
 * The token estimate, the per-result output budget (texts cut head + tail with a notice whose numbers add up,
 * images never turned into text) and the shares of a result's texts, including 5 MB and 50 MB texts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../../src/content/default-result-budget.js';
import { DEFAULT_IMAGE_TOKEN_COST, estimateTokens } from '../../src/content/linear-token-estimate.js';
import { applyOutputBudget, STORED_TEXT_SEPARATOR, storedTextOf } from '../../src/content/output-budget.js';
import { MAX_STORED_READ_LENGTH } from '../../src/content/result-store.js';
import { shareBudget } from '../../src/content/share-budget.js';
import type { ToolResultPart } from '../../src/providers/types.js';
import { parseCut } from './notice.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const image: ToolResultPart = { type: 'image', data: PNG, mimeType: 'image/png' };
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Numbered lines, so that any slice shows where it came from. */
function numberedText(characters: number): string {
  const line = (index: number) => `line ${String(index).padStart(8, '0')} of the result\n`;
  const lineLength = line(0).length;
  const lines: string[] = [];
  for (let index = 0; index * lineLength < characters; index++) lines.push(line(index));
  return lines.join('').slice(0, characters);
}

function textOf(part: ToolResultPart | undefined): string {
  if (part?.type !== 'text') throw new Error(`expected a text part, got ${part?.type}`);
  return part.text;
}

describe('estimateTokens', () => {
  it('counts ASCII at four characters per token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(400))).toBe(100);
  });

  it('counts every other UTF-16 code unit as a whole token', () => {
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('😀')).toBe(2);
    expect(estimateTokens('abcd日')).toBe(2);
  });
});

describe('applyOutputBudget on text', () => {
  it('returns a result within budget unchanged', () => {
    const parts: ToolResultPart[] = [{ type: 'text', text: 'short answer' }, image];
    const budgeted = applyOutputBudget(parts, { maxTokens: DEFAULT_RESULT_TOKEN_BUDGET, resultId: 'res_x' });
    expect(budgeted.content).toEqual(parts);
    expect(budgeted.cut).toBe(false);
    // The 1 × 1 PNG costs 1 token by its pixels.
    expect(budgeted.originalTokens).toBe(3 + 1);
    expect(budgeted.keptTokens).toBe(budgeted.originalTokens);
  });

  it('keeps head and tail around a notice whose numbers add up', () => {
    const original = numberedText(200_000);
    const budgeted = applyOutputBudget([{ type: 'text', text: original }], { maxTokens: 1_000, resultId: 'res_abc' });
    expect(budgeted.cut).toBe(true);
    expect(budgeted.originalTokens).toBe(50_000);

    const kept = textOf(budgeted.content[0]);
    const cut = parseCut(kept);
    expect(original.startsWith(cut.head)).toBe(true);
    expect(original.endsWith(cut.tail)).toBe(true);
    expect(cut.head.length).toBeGreaterThan(1_000);
    expect(Math.abs(cut.head.length - cut.tail.length)).toBeLessThanOrEqual(1);
    expect(cut.head.length + cut.omittedCharacters + cut.tail.length).toBe(original.length);
    expect(cut.omittedTokens).toBe(Math.ceil(cut.omittedCharacters / 4));
    expect(cut.resultId).toBe('res_abc');
    expect(cut.offset).toBe(cut.head.length);
    expect(cut.length).toBe(Math.min(cut.omittedCharacters, MAX_STORED_READ_LENGTH));
    expect(budgeted.keptTokens).toBe(estimateTokens(kept));
    expect(budgeted.keptTokens).toBeLessThanOrEqual(1_000);
    expect(budgeted.keptTokens).toBeGreaterThan(950);
  });

  it('says the full text was not kept when there is no stored copy', () => {
    const budgeted = applyOutputBudget([{ type: 'text', text: numberedText(10_000) }], { maxTokens: 500 });
    const cut = parseCut(textOf(budgeted.content[0]));
    expect(cut.resultId).toBeUndefined();
    expect(textOf(budgeted.content[0])).toContain('the full text was not kept');
  });

  it('keeps non-Latin text within budget and never splits a surrogate pair', () => {
    const original = '漢字と😀絵文字'.repeat(20_000);
    const budgeted = applyOutputBudget([{ type: 'text', text: original }], { maxTokens: 2_001, resultId: 'res_u' });
    const kept = textOf(budgeted.content[0]);
    expect(budgeted.keptTokens).toBeLessThanOrEqual(2_001);
    expect(budgeted.keptTokens).toBe(estimateTokens(kept));
    expect(LONE_SURROGATE.test(kept)).toBe(false);
    const cut = parseCut(kept);
    expect(cut.head.length + cut.omittedCharacters + cut.tail.length).toBe(original.length);
  });

  it('cuts the largest text first and points each notice at its place in the stored text', () => {
    const small = 'small result that fits';
    const large = numberedText(120_000);
    const parts: ToolResultPart[] = [
      { type: 'text', text: small },
      { type: 'text', text: large },
    ];
    const budgeted = applyOutputBudget(parts, { maxTokens: 2_000, resultId: 'res_two' });
    expect(budgeted.content[0]).toEqual({ type: 'text', text: small });
    const cut = parseCut(textOf(budgeted.content[1]));
    const stored = storedTextOf(parts);
    expect(stored).toBe(small + STORED_TEXT_SEPARATOR + large);
    const offset = cut.offset as number;
    expect(offset).toBe(small.length + STORED_TEXT_SEPARATOR.length + cut.head.length);
    expect(stored.slice(offset, offset + cut.omittedCharacters)).toBe(
      large.slice(cut.head.length, large.length - cut.tail.length),
    );
    expect(budgeted.keptTokens).toBeLessThanOrEqual(2_000);
  });
});

describe('applyOutputBudget on images', () => {
  it('replaces an image over budget with a notice, never with its data as text', () => {
    const budgeted = applyOutputBudget([image], {
      maxTokens: 1_000,
      imageTokenCost: DEFAULT_IMAGE_TOKEN_COST,
      resultId: 'res_i',
    });
    expect(budgeted.cut).toBe(true);
    expect(budgeted.content).toHaveLength(1);
    const notice = textOf(budgeted.content[0]);
    expect(notice).toMatch(/^\[image left out \(image\/png, \d+ bytes\): it does not fit/);
    expect(notice).not.toContain(PNG.slice(0, 16));
    expect(budgeted.keptTokens).toBe(estimateTokens(notice));
  });

  it('keeps images in order while they fit, then shares the rest among the texts', () => {
    const text = numberedText(40_000);
    const parts: ToolResultPart[] = [image, { type: 'text', text }, image, image];
    const budgeted = applyOutputBudget(parts, { maxTokens: 4_000, imageTokenCost: 1_500, resultId: 'res_m' });
    expect(budgeted.content.map((part) => part.type)).toEqual(['image', 'text', 'image', 'text']);
    expect(budgeted.content[2]).toEqual(image);
    expect(textOf(budgeted.content[3])).toMatch(/^\[image left out/);
    const cut = parseCut(textOf(budgeted.content[1]));
    expect(cut.head.length + cut.omittedCharacters + cut.tail.length).toBe(text.length);
    expect(budgeted.keptTokens).toBeLessThanOrEqual(4_000);
  });
});

describe('applyOutputBudget on very large texts', () => {
  for (const megabytes of [5, 50]) {
    it(`bounds a ${megabytes} MB text to the default budget`, { timeout: 120_000 }, () => {
      const chunk = 'a line of tool output, repeated to make a very large result\n';
      const original = `START${chunk.repeat(Math.ceil((megabytes * 1024 * 1024) / chunk.length))}END`;
      const budgeted = applyOutputBudget([{ type: 'text', text: original }], {
        maxTokens: DEFAULT_RESULT_TOKEN_BUDGET,
        resultId: 'res_big',
      });
      const kept = textOf(budgeted.content[0]);
      expect(budgeted.originalTokens).toBe(Math.ceil(original.length / 4));
      expect(budgeted.keptTokens).toBeLessThanOrEqual(DEFAULT_RESULT_TOKEN_BUDGET);
      expect(kept.length).toBeLessThanOrEqual(DEFAULT_RESULT_TOKEN_BUDGET * 4);
      expect(kept.startsWith('START')).toBe(true);
      expect(kept.endsWith('END')).toBe(true);
      const cut = parseCut(kept);
      expect(cut.head.length + cut.omittedCharacters + cut.tail.length).toBe(original.length);
    });
  }
});

describe('shared budget', () => {
  it('shares a total so that the largest shrink first', () => {
    expect(shareBudget([100, 5_000, 20_000], 6_000)).toEqual([100, 2_950, 2_950]);
    expect(shareBudget([100, 5_000, 20_000], 15_000)).toEqual([100, 5_000, 9_900]);
    expect(shareBudget([10, 20], 1_000)).toEqual([10, 20]);
  });
});
