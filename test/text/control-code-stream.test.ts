/**
 * Text cleaned as it streams in pieces comes out as the whole text cleaned at once, wherever the pieces are cut: a
 * control sequence cut in two is removed whole, never its tail printed as text.
 */
import { describe, expect, it } from 'vitest';
import { createControlCodeStream } from '../../src/text/control-code-stream.js';
import { stripControlCodes } from '../../src/text/strip-control-codes.js';

const SAMPLE = [
  'a\u001b]8;;https://example.com\u0007link\u001b]8;;\u001b\\ b',
  '\u001b]52;c;ZXZpbA==\u0007c\u001b]0;title\u009cd',
  '\u001b[?1049h e\u009b31mf\u001b(Bg\u001bPq#0\u001b\\h\r\ni\u001b[',
].join('');

describe('createControlCodeStream', () => {
  it('gives the whole text stripped, wherever it is cut in two or three', () => {
    const whole = stripControlCodes(SAMPLE);
    expect(whole).toBe('alink bcd efgh\ni');
    for (let first = 0; first <= SAMPLE.length; first += 1) {
      for (let second = first; second <= SAMPLE.length; second += 1) {
        const stream = createControlCodeStream();
        const pieces = [SAMPLE.slice(0, first), SAMPLE.slice(first, second), SAMPLE.slice(second)];
        const out = pieces.map((piece) => stream.push(piece)).join('') + stream.end();
        if (out !== whole) expect({ first, second, out }).toEqual({ first, second, out: whole });
      }
    }
  });

  it('holds back no more than a bounded sequence: an endless one is removed as far as it goes', () => {
    const stream = createControlCodeStream();
    expect(stream.push('before \u001b]0;')).toBe('before ');
    expect(stream.push('x'.repeat(10_000))).toBe('');
    expect(stream.push(' after')).toBe(' after');
    expect(stream.end()).toBe('');
  });
});
