/**
 * `tools call` printing a text that stands in for one too long to hold in memory: the whole text in its place (plain,
 * on stderr for a failed call, and in `--json`), or, when its stored copy cannot be read, the stand-in itself with a
 * note on stderr and a result that says the output is not whole.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { printCallJson } from '../../src/cli/print-call-json.js';
import { printCallResult } from '../../src/cli/print-call-result.js';
import { ResultStoreError } from '../../src/content/result-store.js';

const STAND_IN = 'head [… left out …] tail';
const WHOLE = `head ${'middle \u001b[31m'.repeat(5)}TOKEN-1234 tail`;

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function* pieces(text: string): AsyncIterable<string> {
  for (let start = 0; start < text.length; start += 6) yield text.slice(start, start + 6);
}
async function* unreadable(): AsyncIterable<string> {
  yield* [];
  throw new ResultStoreError('Stored result res_x is no longer kept.', 'not-stored');
}

const result = {
  content: [
    { type: 'text', text: 'before' },
    { type: 'text', text: STAND_IN },
  ],
};
const expectedWhole = `head ${'middle '.repeat(5)}[redacted] tail`;

describe('printing a text kept out of memory', () => {
  it('prints the whole text in its place, redacted and without control codes', async () => {
    const whole = await printCallResult(result, {
      isError: false,
      secrets: ['TOKEN-1234'],
      wholeTextOf: (text) => (text === STAND_IN ? pieces(WHOLE) : undefined),
    });
    expect(whole).toBe(true);
    expect(out.join('')).toBe(`before\n${expectedWhole}\n`);
    expect(err).toEqual([]);
  });

  it("prints a failed call's whole text on stderr", async () => {
    await printCallResult(result, {
      isError: true,
      wholeTextOf: (text) => (text === STAND_IN ? pieces(WHOLE) : undefined),
    });
    expect(out).toEqual([]);
    expect(err.join('')).toBe(`before\nhead ${'middle '.repeat(5)}TOKEN-1234 tail\n`);
  });

  it('prints the stand-in and says so when the stored copy cannot be read', async () => {
    const whole = await printCallResult(result, {
      isError: false,
      wholeTextOf: (text) => (text === STAND_IN ? unreadable() : undefined),
    });
    expect(whole).toBe(false);
    expect(out.join('')).toBe(`before\n${STAND_IN}\n`);
    expect(err.join('')).toContain(
      'the whole text cannot be printed, only its two ends: Stored result res_x is no longer kept.',
    );
  });

  it('writes the whole text into --json as JSON.stringify would have, and the stand-in when it cannot', async () => {
    const value = { outcome: 'ok', isError: false, result };
    expect(
      await printCallJson(value, {
        secrets: ['TOKEN-1234'],
        wholeTextOf: (text) => (text === STAND_IN ? pieces(WHOLE) : undefined),
      }),
    ).toBe(true);
    const held = {
      ...value,
      result: { content: [result.content[0], { type: 'text', text: WHOLE.replace('TOKEN-1234', '[redacted]') }] },
    };
    expect(out.join('')).toBe(`${JSON.stringify(held, null, 2)}\n`);

    out.length = 0;
    expect(
      await printCallJson(value, {
        secrets: [],
        wholeTextOf: (text) => (text === STAND_IN ? unreadable() : undefined),
      }),
    ).toBe(false);
    expect(out.join('')).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(err.join('')).toContain('only its two ends');
  });
});
