/**
 * A line nested far too deep is read with its too-deep parts cut before `JSON.parse` (which takes a third of a
 * second for 100,000 levels): what a refusal needs (id and method) survives, brackets in strings do not count, and
 * text that breaks off while nested still fails to parse.
 */
import { describe, expect, it } from 'vitest';
import { readJsonRpcLine } from '../../src/connections/parse-json-rpc-line.js';
import { cutTooDeepText, MAX_JSON_DEPTH, textExceedsJsonDepth } from '../../src/json/json-depth.js';

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('cutting text nested too deep', () => {
  it('leaves text within the limit alone', () => {
    expect(cutTooDeepText(`{"a":${deep(MAX_JSON_DEPTH - 1)}}`)).toBeUndefined();
    expect(cutTooDeepText('{"a":"[[[[[[[["}', 3)).toBeUndefined();
  });

  it('replaces each value opening past the limit by null, keeping the rest', () => {
    expect(cutTooDeepText('{"a":[[1]],"b":[2],"c":{"d":{"e":3}}}', 2)).toBe('{"a":[null],"b":[2],"c":{"d":null}}');
    expect(cutTooDeepText('[["]]}[{\\"",[[]]]]', 2)).toBe('[["]]}[{\\"",null]]');
  });

  it('keeps a cut-off text cut off', () => {
    const cut = cutTooDeepText(`{"a":${'['.repeat(500)}`, 10);
    expect(cut).toBe(`{"a":${'['.repeat(9)}`);
    expect(() => JSON.parse(cut ?? '')).toThrow();
  });

  it('reads a 100,000-deep request by its id and method, flagged too deep', () => {
    const line = `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"x":${deep(100_000)}}}`;
    expect(readJsonRpcLine(line)).toEqual({
      message: { jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: { x: expect.anything() } },
      tooDeep: true,
    });
    expect(readJsonRpcLine('{"jsonrpc":"2.0","id":8,"result":{}}')).toEqual({
      message: { jsonrpc: '2.0', id: 8, result: {} },
      tooDeep: false,
    });
    expect(readJsonRpcLine(`{"jsonrpc":"2.0","id":9,"result":${'['.repeat(1000)}`)).toBeUndefined();
  });

  it('gives the same verdicts where few brackets in all let it skip the scan and where many make it scan', () => {
    // At the limit in all (skipped), one past it at once (scanned), and many only in a string (scanned, within).
    const atLimit = `{"a":${'['.repeat(2)}1${']'.repeat(2)},"b":"${'x'.repeat(100_000)}"}`;
    expect(textExceedsJsonDepth(atLimit, 3)).toBe(false);
    expect(cutTooDeepText(atLimit, 3)).toBeUndefined();
    const onePast = `{"a":${deep(3)},"b":"${'x'.repeat(100_000)}"}`;
    expect(textExceedsJsonDepth(onePast, 3)).toBe(true);
    expect(cutTooDeepText(onePast, 3)).toBe(
      `{"a":${deep(2).slice(0, 2)}null${deep(2).slice(2)},"b":"${'x'.repeat(100_000)}"}`,
    );
    const inString = `{"a":"${'[{'.repeat(1000)}","b":[[1]]}`;
    expect(textExceedsJsonDepth(inString, 3)).toBe(false);
    expect(cutTooDeepText(inString, 3)).toBeUndefined();
    expect(textExceedsJsonDepth(inString, 1)).toBe(true);
    expect(cutTooDeepText(inString, 1)).toBe(`{"a":"${'[{'.repeat(1000)}","b":null}`);
  });
});
