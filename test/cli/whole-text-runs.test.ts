/**
 * A text printed whole from its stored copy is cut into runs that are redacted and cleaned one at a time: the result
 * is the same as redacting and cleaning the whole text at once, wherever the pieces it is read in happen to end.
 */
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/audit/redact.js';
import { openWholeText, wholeTextRuns } from '../../src/cli/whole-text-runs.js';
import { ResultStoreError } from '../../src/content/result-store.js';
import { escapeJsonControlCodes, stripControlCodes } from '../../src/text/strip-control-codes.js';

async function* inPieces(text: string, length: number): AsyncIterable<string> {
  for (let start = 0; start < text.length; start += length) yield text.slice(start, start + length);
}

async function collect(runs: AsyncIterable<string>, clean: (run: string) => string): Promise<string[]> {
  const out: string[] = [];
  for await (const run of runs) out.push(clean(run));
  return out;
}

const secrets = ['sk-live-0123456789', 'pass\u00e9\ud83d\ude00word', 'sk-live'];
// Secrets, an OSC hyperlink, a colour, CR LF, C1 controls and a surrogate pair, repeated so every cut falls somewhere.
const unit =
  'plain text sk-live-0123456789 more \u001b]8;;http://example.test\u0007link\u001b]8;;\u0007 then ' +
  '\u001b[31mred\u001b[0m pass\u00e9\ud83d\ude00word \r\n \u009b2J caf\u00e9 \ud83d\ude00 sk-live end\n';
const whole = unit.repeat(40);

describe('a whole text in runs', () => {
  it('redacts and strips control codes as the whole text at once would, for every piece length', async () => {
    const plain = (run: string) => stripControlCodes(redactText(run, secrets));
    const expected = plain(whole);
    expect(expected).not.toContain('sk-live');
    expect(expected).not.toContain('\u001b');
    for (const length of [1, 2, 7, 13, 64, 333, unit.length, whole.length]) {
      const runs = await collect(wholeTextRuns(inPieces(whole, length), secrets), plain);
      expect(runs.join(''), `pieces of ${length}`).toBe(expected);
    }
  });

  it('escapes as JSON, run by run, to the same characters as the whole string', async () => {
    const json = (run: string) => escapeJsonControlCodes(JSON.stringify(redactText(run, secrets)).slice(1, -1));
    const expected = json(whole);
    for (const length of [1, 5, 97, 1_000]) {
      const runs = await collect(wholeTextRuns(inPieces(whole, length), secrets), json);
      expect(runs.join(''), `pieces of ${length}`).toBe(expected);
    }
  });

  it('says why a stored copy cannot be read before anything is read, and hands on the pieces otherwise', async () => {
    async function* refused(): AsyncIterable<string> {
      yield* [];
      throw new ResultStoreError('Stored result res_x is no longer kept.', 'not-stored');
    }
    expect(await openWholeText(refused())).toEqual({ unreadable: 'Stored result res_x is no longer kept.' });
    const opened = await openWholeText(inPieces('abcdef', 2));
    expect('pieces' in opened && (await collect(opened.pieces, (run) => run))).toEqual(['ab', 'cd', 'ef']);
  });
});
