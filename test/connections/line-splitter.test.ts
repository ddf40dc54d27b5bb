/**
 * The stdio line splitter: bytes as they come off a pipe → whole lines. Lines cut anywhere (between chunks, inside
 * a CRLF, inside a multi-byte character) come out whole; a line over the limit is reported once and skipped without
 * being kept, and the next line comes out as usual.
 */
import { describe, expect, it } from 'vitest';
import { lineWithLongStrings } from '../../src/connections/json-line-builder.js';
import { LineSplitter } from '../../src/connections/line-splitter.js';

function splitter(maxLineBytes = 1_000) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const split = new LineSplitter(
    maxLineBytes,
    (line) => lines.push(lineWithLongStrings(line)),
    (bytes) => oversize.push(bytes),
  );
  return {
    lines,
    oversize,
    push: (...chunks: Array<string | Buffer>) => {
      for (const chunk of chunks) split.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    },
  };
}

/** `text` as UTF-8, cut after every byte offset in `cuts`. */
function cutAt(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const bounds = [0, ...cuts, bytes.length];
  return bounds.slice(1).map((end, index) => bytes.subarray(bounds[index], end));
}

describe('LineSplitter', () => {
  it('gives every newline-terminated line of a chunk, and keeps an unfinished one until its newline', () => {
    const { lines, push } = splitter();
    push('one\ntwo\nthr');
    expect(lines).toEqual(['one', 'two']);
    push('ee');
    expect(lines).toEqual(['one', 'two']);
    push('\n');
    expect(lines).toEqual(['one', 'two', 'three']);
  });

  it('joins a line cut across many chunks', () => {
    const { lines, push } = splitter();
    push('{"jsonrpc":', '"2.0",', '"id":1,', '"result":{}}', '\n{"a"', ':1}\n');
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}', '{"a":1}']);
  });

  it('gives empty lines as empty strings', () => {
    const { lines, push } = splitter();
    push('\n\nx\n\n');
    expect(lines).toEqual(['', '', 'x', '']);
  });

  it('drops the CR of a CRLF ending, also when CR and LF arrive in different chunks', () => {
    const { lines, push } = splitter();
    push('crlf\r\nsplit\r', '\nalone\r', '\n');
    expect(lines).toEqual(['crlf', 'split', 'alone']);
  });

  it('keeps a CR that does not end the line, and drops only one CR before the newline', () => {
    const { lines, push } = splitter();
    push('a\rb\r\r\n');
    expect(lines).toEqual(['a\rb\r']);
  });

  it('decodes a multi-byte character cut between chunks at every byte', () => {
    // 2-, 3- and 4-byte characters, each cut inside at every possible place.
    for (const character of ['é', '€', '😀']) {
      const width = Buffer.byteLength(character);
      for (let cut = 1; cut < width; cut += 1) {
        const { lines, push } = splitter();
        push(...cutAt(`x${character}y\n`, [1 + cut]));
        expect(lines, `${character} cut after byte ${cut}`).toEqual([`x${character}y`]);
      }
    }
  });

  it('gives the same lines whether the bytes come at once or one by one', () => {
    const text = 'plain\r\nünïcödé 😀 line\n\n{"id":"€"}\r\nlast\n';
    const whole = splitter();
    whole.push(text);
    const bytewise = splitter();
    const bytes = Buffer.from(text);
    for (let index = 0; index < bytes.length; index += 1) bytewise.push(bytes.subarray(index, index + 1));
    expect(bytewise.lines).toEqual(whole.lines);
    expect(whole.lines).toEqual(['plain', 'ünïcödé 😀 line', '', '{"id":"€"}', 'last']);
  });

  it('lets a line of exactly the limit through and reports one byte more as oversize', () => {
    const { lines, oversize, push } = splitter(10);
    push('0123456789\n', '0123456789A\n');
    expect(lines).toEqual(['0123456789']);
    expect(oversize).toEqual([11]);
  });

  it('counts the limit in bytes, not characters', () => {
    const { lines, oversize, push } = splitter(10);
    // Five characters, ten bytes: fits. Six characters, twelve bytes: does not.
    push('ééééé\n', 'éééééé\n');
    expect(lines).toEqual(['ééééé']);
    expect(oversize).toEqual([12]);
  });

  it('reports an oversize line once, however many chunks it spans, keeps none of it, and goes on after it', () => {
    const { lines, oversize, push } = splitter(16);
    push('before\n', 'x'.repeat(10), 'x'.repeat(10), 'x'.repeat(1_000), 'y'.repeat(100_000), 'tail\nafter\n');
    expect(oversize).toEqual([20]);
    // Nothing of the long line comes out, not even its tail after the limit was passed.
    expect(lines).toEqual(['before', 'after']);
  });

  it('reports the bytes seen up to the chunk that passed the limit, not the whole line (it never holds it)', () => {
    const { oversize, push } = splitter(100);
    for (let chunk = 0; chunk < 1_000; chunk += 1) push('z'.repeat(64));
    push('\n');
    expect(oversize).toEqual([128]);
  });

  it('reports each of two oversize lines in one chunk, and keeps the short line between them', () => {
    const { lines, oversize, push } = splitter(4);
    push('toolong\nok\nalso too long\nfine\n');
    expect(lines).toEqual(['ok', 'fine']);
    expect(oversize).toEqual([7, 13]);
  });
});
