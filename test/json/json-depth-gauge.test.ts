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

describe('JsonDepthGauge watching a top-level key', () => {
  const encoder = new TextEncoder();
  function seesMethod(text: string, cuts: number[] = []): boolean {
    const gauge = new JsonDepthGauge();
    gauge.keepOutline();
    gauge.watchTopLevelKey('method');
    const bytes = encoder.encode(text);
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      gauge.feed(bytes, from, cut);
      from = cut;
    }
    return gauge.sawTopLevelKey();
  }

  it('sees a member at the top of an object, and nothing else named so', () => {
    expect(seesMethod('{"jsonrpc":"2.0","method":"notifications/progress","params":{}}')).toBe(true);
    expect(seesMethod('{ "id" : 1 ,\n "method"\n : "x" }')).toBe(true);
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"result":{"method":"x"}}',
      '{"jsonrpc":"2.0","id":1,"result":5,"x":"method"}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":"oops","message":"method","data":{"method":1}}}',
      '{"jsonrpc":"2.0","id":"method","result":{}}',
      '[{"method":"x"}]',
      '{"methods":1}',
      '{"xmethod":1}',
      '{"a":"\\"method\\":1"}',
    ]) {
      expect(seesMethod(text), text).toBe(false);
    }
  });

  it('is never wrong when it sees one, on 10,000 texts cut into random pieces', () => {
    const next = random(29);
    const pieces = ['{', '}', '[', ']', '"method"', '"id"', ':', ',', '1', '"x"', '\\"', '"', ' ', '\n'];
    let seen = 0;
    for (let round = 0; round < 10_000; round++) {
      let text = '{';
      const length = Math.floor(next() * 12);
      for (let index = 0; index < length; index++) text += pieces[Math.floor(next() * pieces.length)];
      text += next() < 0.5 ? '}' : '';
      const cuts = Array.from({ length: 2 }, () => Math.floor(next() * text.length)).sort((a, b) => a - b);
      if (!seesMethod(text, cuts)) continue;
      seen++;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        continue;
      }
      // Text that parses has the member at its top: it is no answer.
      expect(Object.hasOwn(parsed as object, 'method'), JSON.stringify({ text, cuts })).toBe(true);
    }
    expect(seen).toBeGreaterThan(50);
  });

  it('forgets what it saw at reset', () => {
    const gauge = new JsonDepthGauge();
    gauge.watchTopLevelKey('method');
    gauge.feed(encoder.encode('{"method":"x"}'));
    expect(gauge.sawTopLevelKey()).toBe(true);
    gauge.reset();
    gauge.feed(encoder.encode('{"id":1,"result":{}}'));
    expect(gauge.sawTopLevelKey()).toBe(false);
  });
});
