import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/catalog/stable-json.js';

describe('stableStringify', () => {
  it('sorts object keys at every depth', () => {
    const first = { b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } };
    const second = { a: { c: 'x', d: [{ y: 2, z: 1 }] }, b: 1 };
    expect(stableStringify(first)).toBe('{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}');
    expect(stableStringify(second)).toBe(stableStringify(first));
  });

  it('sorts integer-like keys as strings too, unlike JSON.stringify', () => {
    expect(stableStringify({ b: 1, 10: 2, 2: 3 })).toBe('{"10":2,"2":3,"b":1}');
  });

  it('keeps array order', () => {
    expect(stableStringify({ enum: ['b', 'a', 'c'] })).toBe('{"enum":["b","a","c"]}');
    expect(stableStringify(['b', 'a'])).not.toBe(stableStringify(['a', 'b']));
  });

  it('drops undefined, function and symbol properties and nulls them in arrays, like JSON.stringify', () => {
    const value = { keep: null, gone: undefined, fn: () => 1, sym: Symbol('s'), list: [undefined, () => 1, 1] };
    expect(stableStringify(value)).toBe('{"keep":null,"list":[null,null,1]}');
    expect(JSON.parse(stableStringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('matches JSON.stringify for primitives, escapes, non-finite numbers and toJSON', () => {
    const value = {
      text: 'quote " backslash \\ newline \n unicode é \u2028',
      numbers: [0, -0, 1.5e300, Number.NaN, Number.POSITIVE_INFINITY],
      flags: [true, false],
      date: new Date(Date.UTC(2020, 0, 2)),
      boxed: [new String('s'), new Number(2), new Boolean(false)],
    };
    expect(JSON.parse(stableStringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(stableStringify('x')).toBe('"x"');
    expect(stableStringify(undefined)).toBe('null');
  });

  it('indents like JSON.stringify when asked', () => {
    const value = { b: [1, { d: {}, c: [] }], a: 'x' };
    const sortedCopy = { a: 'x', b: [1, { c: [], d: {} }] };
    expect(stableStringify(value, 2)).toBe(JSON.stringify(sortedCopy, null, 2));
    expect(stableStringify(value, 4)).toBe(JSON.stringify(sortedCopy, null, 4));
  });

  it('throws on cycles and BigInt, and allows shared (non-cyclic) references', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => stableStringify(cyclic)).toThrow(TypeError);
    expect(() => stableStringify({ n: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(stableStringify({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });
});
