/**
 * Long lines through the stdio line splitter: a line spanning many chunks is decoded as its chunks arrive (no
 * chunk is kept until the newline), and comes out exactly as sent, multi-byte characters and CRLF included.
 */
import { describe, expect, it } from 'vitest';
import { lineWithLongStrings } from '../../src/connections/json-line-builder.js';
import { LineSplitter } from '../../src/connections/line-splitter.js';

function collect(maxLineBytes = 10_000_000) {
  const lines: string[] = [];
  const split = new LineSplitter(
    maxLineBytes,
    (line) => lines.push(lineWithLongStrings(line)),
    () => lines.push('<oversize>'),
  );
  return { lines, push: (chunk: Buffer) => split.push(chunk) };
}

describe('LineSplitter with lines spanning many chunks', () => {
  it('decodes each chunk when it arrives: changing a chunk afterwards does not change the line', () => {
    const { lines, push } = collect();
    const first = Buffer.from('{"text":"abc');
    push(first);
    // A pipe reuses nothing here, but a splitter that kept the chunk would now see these bytes.
    first.fill(0x7a);
    push(Buffer.from('def"}\n'));
    expect(lines).toEqual(['{"text":"abcdef"}']);
  });

  it('gives a 1 MB line of mixed-width characters cut into odd-sized chunks back exactly', () => {
    const unit = 'a€é😀\\n"';
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const bytes = Buffer.from(`${text}\r\nnext\n`);
    const { lines, push } = collect();
    for (let start = 0; start < bytes.length; start += 4_093) push(bytes.subarray(start, start + 4_093));
    expect(lines).toHaveLength(2);
    expect(lines[0] === text).toBe(true);
    expect(lines[1]).toBe('next');
  });

  it('drops a CR that came alone at the end of one chunk before the newline of the next', () => {
    const { lines, push } = collect();
    push(Buffer.from('long line'));
    push(Buffer.from('\r'));
    push(Buffer.from('\nshort\r\n'));
    expect(lines).toEqual(['long line', 'short']);
  });

  it('forgets a half-received multi-byte character of an oversize line', () => {
    const { lines, push } = collect(8);
    const euro = Buffer.from('€');
    push(Buffer.concat([Buffer.from('1234567'), euro.subarray(0, 1)]));
    push(Buffer.concat([euro.subarray(1), Buffer.from('\nok\n')]));
    expect(lines).toEqual(['<oversize>', 'ok']);
  });
});
