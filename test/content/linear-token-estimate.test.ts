/**
 * The token estimate counts an ASCII code unit a quarter token and any other a whole one, whether the text is
 * passed over unit by unit (short texts, texts with other characters) or measured at once (long ASCII texts).
 */
import { describe, expect, it } from 'vitest';
import { estimateQuarterTokens, estimateTokens } from '../../src/content/linear-token-estimate.js';

/** The rule written out, unit by unit. */
function quartersByHand(text: string): number {
  let quarters = 0;
  for (let index = 0; index < text.length; index++) quarters += text.charCodeAt(index) < 0x80 ? 1 : 4;
  return quarters;
}

describe('the linear token estimate', () => {
  it('counts each code unit by the rule, for short and long texts with and without other characters', () => {
    const others = ['é', 'ÿ', '\u0080', '中', '😀', '\ud800', '\udfff', '\u007f'];
    for (const length of [0, 1, 63, 64, 65, 1000, 100_000]) {
      const ascii = 'a1 {"k":[]}\n'.repeat(Math.ceil(length / 12)).slice(0, length);
      expect(estimateQuarterTokens(ascii)).toBe(length);
      for (const other of others) {
        for (const text of [other + ascii, ascii + other, ascii.slice(0, length >> 1) + other + ascii]) {
          expect(estimateQuarterTokens(text)).toBe(quartersByHand(text));
        }
      }
    }
    expect(estimateTokens('x'.repeat(4001))).toBe(1001);
    expect(estimateTokens(`${'x'.repeat(100)}中`)).toBe(26);
  });
});
