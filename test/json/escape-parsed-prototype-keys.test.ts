/**
 * The renaming of a checked answer's `__proto__` keys in one walk: keys the client library's schemas made prototypes
 * of are keys again and renamed with the rest, as two walks (restoring, then renaming) gave, and an answer without
 * any comes back as the same object, which is how the host knows it holds no renamed key.
 */
import { describe, expect, it } from 'vitest';
import {
  escapeParsedPrototypeKeys,
  escapePrototypeKeys,
  unescapePrototypeKeys,
} from '../../src/json/escape-prototype-keys.js';
import { restoreOwnKeys } from '../../src/json/own-property.js';

/** What a schema that copies keys by assignment makes of `{"__proto__": inner, ...rest}`. */
function withPrototype(inner: object, rest: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(inner) as Record<string, unknown>, rest);
}

const parsed = (text: string) => JSON.parse(text) as unknown;

describe('escapeParsedPrototypeKeys', () => {
  it('gives back the same object when nothing is renamed', () => {
    const answer = parsed('{"content":[],"structuredContent":{"items":[{"a":1},{"b":[2,{"c":3}]}]},"_meta":{"x":1}}');
    expect(escapeParsedPrototypeKeys(answer)).toBe(answer);
  });

  it('renames as restoring and then renaming did, prototypes made by a check included', () => {
    const inputs = () => [
      parsed(
        '{"__proto__":{"top":1},"outer":{"__proto__":{"a":1},"b":2},"list":[{"__proto__":{"c":3}}],"~__proto__":"x"}',
      ),
      { result: withPrototype({ isError: true }, { shown: 1 }), _meta: withPrototype({ hidden: 'kept' }, {}) },
      { items: [withPrototype({ deep: withPrototype({ z: 1 }, {}) }, { y: 2 })] },
    ];
    const oneWalk = inputs().map(escapeParsedPrototypeKeys);
    const twoWalks = inputs().map((input) => escapePrototypeKeys(restoreOwnKeys(input)));
    expect(oneWalk.map((value) => JSON.stringify(value))).toEqual(twoWalks.map((value) => JSON.stringify(value)));
    for (const value of oneWalk) expect(JSON.stringify(value)).toContain('"~__proto__"');
    // Named back, the keys are own data keys with the values the server sent.
    const back = unescapePrototypeKeys(oneWalk[1]) as { result: Record<string, unknown> };
    expect(Object.getPrototypeOf(back.result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back.result, '__proto__')?.value).toEqual({ isError: true });
  });
});
