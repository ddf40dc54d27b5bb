/**
 * Building a JSON line from its pieces with long strings taken out: whatever the pieces, parsing the built line
 * and putting the long strings back gives exactly what `JSON.parse` gives for the whole line, and a line that is
 * not JSON is kept so that it reads as sent.
 */
import { describe, expect, it } from 'vitest';
import {
  type BuiltLine,
  JsonLineBuilder,
  LONG_STRING_CHARS,
  lineWithLongStrings,
  restoreLongStrings,
} from '../../src/connections/json-line-builder.js';

function build(line: string, pieceLength: number | number[]): BuiltLine {
  const builder = new JsonLineBuilder();
  const lengths = Array.isArray(pieceLength) ? pieceLength : [pieceLength];
  for (let start = 0, turn = 0; start < line.length; turn++) {
    const length = lengths[turn % lengths.length]!;
    builder.add(line.slice(start, start + length));
    start += length;
  }
  return builder.finish();
}

const parsed = (line: BuiltLine) => restoreLongStrings(JSON.parse(line.text), line.longStrings);

/** Every escape JSON has, a surrogate pair as escapes and as characters, repeated past the threshold. */
const awkward = 'line\n "quoted" back\\slash \u00e9 \ud83d\ude00 tab\t \u0001 / ';
const longText = awkward.repeat(Math.ceil((LONG_STRING_CHARS * 1.5) / awkward.length));
const message = {
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text: longText }], note: 'a "short" one' },
};
const line = JSON.stringify(message).replace(/é/g, '\\u00e9');

describe('JsonLineBuilder', () => {
  it('takes a long string out and gives it back exactly, whatever the piece boundaries', () => {
    for (const pieces of [line.length, 65_536, 4_093, [1, 2, 3, 5, 7, 11, 13]]) {
      const built = build(line, pieces);
      expect(built.longStrings, `pieces of ${pieces}`).toHaveLength(1);
      expect(built.text.length).toBeLessThan(200);
      expect(parsed(built)).toEqual(JSON.parse(line));
    }
  });

  it('leaves a line whose strings are all short exactly as it was', () => {
    const short = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { a: awkward, b: [awkward, { c: 'd' }] } });
    for (const pieces of [short.length, 1, [3, 1, 4]]) {
      expect(build(short, pieces)).toEqual({ text: short, longStrings: [] });
    }
  });

  it('gives a long key back in its place, keeping the order of the keys', () => {
    const key = 'k'.repeat(LONG_STRING_CHARS + 1);
    const text = `{"first":1,"${key}":{"inner":"${'v'.repeat(LONG_STRING_CHARS + 5)}"},"last":[2]}`;
    const value = parsed(build(text, 1_000)) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['first', key, 'last']);
    expect(value).toEqual(JSON.parse(text));
  });

  it('leaves alone a string of the server that looks like a placeholder', () => {
    const text = `{"a":"\\u0000000000000000000000000000#0","b":"${'x'.repeat(LONG_STRING_CHARS + 1)}"}`;
    const value = parsed(build(text, 999)) as { a: string; b: string };
    expect(value.a).toBe('\u0000000000000000000000000000#0');
    expect(value.b).toHaveLength(LONG_STRING_CHARS + 1);
  });

  it('keeps a line that is not JSON so that it reads as sent: a long string with a raw control character', () => {
    const bad = `{"jsonrpc":"2.0","id":1,"result":{"t":"${'x'.repeat(LONG_STRING_CHARS + 10)}\u0001${'y'.repeat(10)}"}}`;
    const built = build(bad, 4_096);
    expect(() => JSON.parse(built.text)).toThrow();
    expect(lineWithLongStrings(built)).toBe(bad);
  });

  it('keeps a line that ends inside a long string as sent, so it fails to parse as it stands', () => {
    const cut = `{"jsonrpc":"2.0","id":1,"result":{"t":"${'x'.repeat(LONG_STRING_CHARS + 10)}\\`;
    const built = build(cut, 4_096);
    expect(lineWithLongStrings(built)).toBe(cut);
    expect(() => JSON.parse(lineWithLongStrings(built))).toThrow();
  });

  it('puts a long string back where it was when a line with one is not a message', () => {
    const text = `noise {"a":"${'z'.repeat(LONG_STRING_CHARS + 1)}","b":"\\n"}`;
    const built = build(text, 5_000);
    expect(built.longStrings).toHaveLength(1);
    expect(lineWithLongStrings(built)).toBe(text);
  });
});
