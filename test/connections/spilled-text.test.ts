/**
 * A tool result's text too long to hold in memory, built from the pieces its line arrives in: written out whole
 * and in order as it comes, the message carrying a stand-in (its two ends around a notice) that the budget can
 * claim; every other string, and every line that is not a well-formed result, kept as before.
 */
import { describe, expect, it } from 'vitest';
import { type BuiltLine, JsonLineBuilder, restoreLongStrings } from '../../src/connections/json-line-builder.js';
import { LineSplitter } from '../../src/connections/line-splitter.js';
import { claimSpilledText, type SpillWriter } from '../../src/connections/spilled-text.js';

const SPILL_MIN = 100_000;
const EDGE = 1_000;

interface RecordedWriter extends SpillWriter {
  pieces: string[];
  state: 'open' | 'ended' | 'aborted';
}

function recorder() {
  const writers: RecordedWriter[] = [];
  const openSpill = () => {
    const writer: RecordedWriter = {
      id: `res_test${writers.length}`,
      pieces: [],
      state: 'open',
      write(text) {
        expect(writer.state).toBe('open');
        writer.pieces.push(text);
      },
      end() {
        writer.state = 'ended';
      },
      abort() {
        writer.state = 'aborted';
      },
    };
    writers.push(writer);
    return writer;
  };
  return { writers, openSpill };
}

function build(line: string, openSpill: () => SpillWriter | undefined, pieceLength = 4_099): BuiltLine {
  const builder = new JsonLineBuilder({ openSpill, spillMinChars: SPILL_MIN, keptEdgeChars: EDGE });
  for (let start = 0; start < line.length; start += pieceLength) builder.add(line.slice(start, start + pieceLength));
  return builder.finish();
}

/** Escapes of every kind and a surrogate pair, so pieces cut them anywhere. */
const awkward = 'line\n "quoted" back\\slash \u00e9 \ud83d\ude00 tab\t / ';
const bigText = `BEGIN ${awkward.repeat(Math.ceil(300_000 / awkward.length))} END`;
const resultLine = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ result: { content: [{ type: 'text', text }], ...extra }, jsonrpc: '2.0', id: 3 });

describe('a tool result text kept out of memory', () => {
  it('writes the whole text out in order and hands on a stand-in the budget can claim once', () => {
    for (const pieceLength of [4_099, 65_536, 7]) {
      const { writers, openSpill } = recorder();
      const built = build(resultLine(bigText), openSpill, pieceLength);
      expect(writers).toHaveLength(1);
      const writer = writers[0]!;
      expect(writer.state).toBe('ended');
      expect(writer.pieces.join('')).toBe(bigText);

      const message = restoreLongStrings(JSON.parse(built.text), built.longStrings) as {
        result: { content: Array<{ text: string }> };
        id: number;
      };
      expect(message.id).toBe(3);
      const standIn = message.result.content[0]!.text;
      expect(standIn.startsWith(bigText.slice(0, EDGE))).toBe(true);
      expect(standIn.endsWith(bigText.slice(-EDGE))).toBe(true);
      expect(standIn).toContain(`its full text is stored result ${writer.id}.]`);
      expect(standIn.length).toBeLessThan(2 * EDGE + 300);

      const facts = claimSpilledText(standIn);
      expect(facts).toEqual({
        id: writer.id,
        length: bigText.length,
        nonAsciiUnits: [...bigText].reduce((count, char) => count + (char.charCodeAt(0) >= 0x80 ? char.length : 0), 0),
        utf8Bytes: Buffer.byteLength(bigText),
        head: bigText.slice(0, EDGE),
        tail: bigText.slice(-EDGE),
      });
      expect(claimSpilledText(standIn)).toBeUndefined();
    }
  });

  it('keeps long strings anywhere else in memory, as they were', () => {
    const lines = [
      // structuredContent, a resource's text, a text under another key, a notification, a request.
      resultLine('short', { structuredContent: { text: bigText } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'a:b', text: bigText }] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', note: bigText, text: 'x' }] } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { content: [{ text: bigText }] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', [bigText]: 1, text: 'x' }] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [[{ text: bigText }]] } }),
    ];
    for (const line of lines) {
      const { writers, openSpill } = recorder();
      const built = build(line, openSpill);
      expect(writers).toHaveLength(0);
      expect(restoreLongStrings(JSON.parse(built.text), built.longStrings)).toEqual(JSON.parse(line));
    }
  });

  it('holds the text in memory when nothing can be written', () => {
    const built = build(resultLine(bigText), () => undefined);
    expect(restoreLongStrings(JSON.parse(built.text), built.longStrings)).toEqual(JSON.parse(resultLine(bigText)));
  });

  it('deletes what was written of a line that turns out not to be JSON, and the line stays unparseable', () => {
    const badEscape = resultLine(bigText).replace(' END', ' \\q END');
    const unfinished = resultLine(bigText).slice(0, -40);
    for (const line of [badEscape, unfinished]) {
      const { writers, openSpill } = recorder();
      const built = build(line, openSpill);
      expect(writers.map((writer) => writer.state)).toEqual(['aborted']);
      expect(() => JSON.parse(built.text)).toThrow();
      expect(built.text.startsWith('{"result":{"content":[{"type":"text","text":"BEGIN line\\n')).toBe(true);
    }
  });

  it('follows deep nesting without growing, and spills nothing inside it', () => {
    const depth = 200_000;
    const deep = `{"result":{"content":[{"text":${'['.repeat(depth)}"${'y'.repeat(SPILL_MIN * 2)}"${']'.repeat(depth)}}]}}`;
    const { writers, openSpill } = recorder();
    const built = build(deep, openSpill);
    expect(writers).toHaveLength(0);
    expect(built.longStrings[0]).toBe('y'.repeat(SPILL_MIN * 2));
  });

  it('deletes the text being written when its line goes over the size limit', () => {
    const { writers, openSpill } = recorder();
    const oversize: number[] = [];
    const lines: BuiltLine[] = [];
    const splitter = new LineSplitter(
      250_000,
      (line) => lines.push(line),
      (bytes) => oversize.push(bytes),
      { openSpill, spillMinChars: SPILL_MIN, keptEdgeChars: EDGE },
    );
    const line = Buffer.from(`${resultLine('x'.repeat(400_000))}\n${resultLine('ok')}\n`);
    for (let start = 0; start < line.length; start += 65_536) splitter.push(line.subarray(start, start + 65_536));
    expect(oversize).toHaveLength(1);
    expect(writers.map((writer) => writer.state)).toEqual(['aborted']);
    expect(lines.map((built) => JSON.parse(built.text).result.content[0].text)).toEqual(['ok']);
  });
});
