/**
 * The depth gauge for JSON arriving in pieces agrees with the one-pass text check on the same text, wherever the
 * pieces break (inside a string, an escape or a multi-byte character).
 */
import { describe, expect, it } from 'vitest';
import { JsonDepthGauge, textExceedsJsonDepth } from '../../src/json/json-depth.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ['[', ']', '{', '}', '"', '\\"', '\\\\', '"[[[[', ']]]"', 'é', '😀', ':', ',', '1', 'x'];

function gaugeSays(bytes: Uint8Array, cuts: number[], maxDepth: number): boolean {
  const gauge = new JsonDepthGauge(maxDepth);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (gauge.feed(bytes, from, cut)) return true;
    from = cut;
  }
  return false;
}

describe('JsonDepthGauge', () => {
  it('agrees with textExceedsJsonDepth on 2,000 texts cut into random pieces', () => {
    const next = random(17);
    const encoder = new TextEncoder();
    let tooDeep = 0;
    for (let round = 0; round < 2_000; round++) {
      let text = '';
      const length = 1 + Math.floor(next() * 60);
      for (let index = 0; index < length; index++) text += PIECES[Math.floor(next() * PIECES.length)];
      const bytes = encoder.encode(text);
      const cuts = Array.from({ length: 3 }, () => Math.floor(next() * bytes.length)).sort((a, b) => a - b);
      const expected = textExceedsJsonDepth(text, 4);
      if (expected) tooDeep++;
      expect(gaugeSays(bytes, cuts, 4), JSON.stringify({ text, cuts })).toBe(expected);
    }
    // Both outcomes were exercised.
    expect(tooDeep).toBeGreaterThan(100);
    expect(tooDeep).toBeLessThan(1_900);
  });

  it('counts nothing inside strings, and starts over after reset', () => {
    const gauge = new JsonDepthGauge(2);
    expect(gauge.feed(new TextEncoder().encode('{"a":"[[[[{{{{\\\\"}'))).toBe(false);
    expect(gauge.feed(new TextEncoder().encode('[[[['))).toBe(true);
    gauge.reset();
    expect(gauge.feed(new TextEncoder().encode('[[]]'))).toBe(false);
  });
});
