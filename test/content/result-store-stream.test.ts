/**
 * A stored text written as it arrives (a tool result's text too long to hold in memory), and budgeted from the
 * facts kept of it: the file holds exactly the pieces in order, reads wait for the end, an aborted or over-cap
 * text is refused with a clear reason, and the model's cut points at the stored copy with the right numbers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberSpilledText, spilledStandIn } from '../../src/connections/spilled-text.js';
import { budgetToolResult } from '../../src/content/budget-tool-result.js';
import { estimateTokens } from '../../src/content/linear-token-estimate.js';
import { createResultStore, type ResultStore } from '../../src/content/result-store.js';
import { parseCut } from './notice.js';

let directory: string;
let store: ResultStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'result-store-stream-test-'));
  store = createResultStore(join(directory, 'results'), { maxBytes: 4_000_000 });
});

afterEach(async () => {
  await store.close();
  await rm(directory, { recursive: true, force: true });
});

const pieces = ['BEGIN ', 'caf\u00e9 \ud83d', '\ude00 ', 'x'.repeat(600_000), ' END'];
const whole = pieces.join('');

describe('a stored text written as it arrives', () => {
  it('holds the pieces in order, and a read waits for its end', async () => {
    const stream = store.startStream()!;
    for (const piece of pieces.slice(0, 3)) stream.write(piece);
    const read = store.read(stream.id, 0, 20);
    for (const piece of pieces.slice(3)) stream.write(piece);
    stream.end();
    expect((await read).text).toBe(whole.slice(0, 20));
    expect((await read).totalLength).toBe(whole.length);
    const file = await readFile(store.pathOf(stream.id));
    expect(file.toString('utf16le', 2)).toBe(whole);
    expect(store.storedBytes).toBe(2 + whole.length * 2);
  });

  it('reads a whole text back in pieces, none ending inside a surrogate pair, once it is complete', async () => {
    const stream = store.startStream()!;
    // A pair across the first megabyte the reader takes, and an odd total.
    const text = `${'a'.repeat(512 * 1024 - 1)}\ud83d\ude00${'b'.repeat(300_001)}\u00e9`;
    stream.write(text.slice(0, 100));
    const reading = (async () => {
      const pieces: string[] = [];
      for await (const piece of store.readWhole(stream.id)) pieces.push(piece);
      return pieces;
    })();
    stream.write(text.slice(100));
    stream.end();
    const pieces = await reading;
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => !/[\ud800-\udbff]$/.test(piece))).toBe(true);
    expect(pieces.join('') === text).toBe(true);
  });

  it('refuses reads of an aborted text or one over the cap, and close ends a text left open', async () => {
    const aborted = store.startStream()!;
    aborted.write('partial');
    aborted.abort();
    await expect(store.read(aborted.id, 0, 10)).rejects.toMatchObject({ code: 'not-stored' });

    const errors: string[] = [];
    const capped = createResultStore(join(directory, 'capped'), {
      maxBytes: 1_000,
      onWriteError: (error) => errors.push(error.message),
    });
    const tooBig = capped.startStream()!;
    tooBig.write('y'.repeat(400));
    tooBig.write('y'.repeat(400));
    tooBig.end();
    await expect(capped.read(tooBig.id, 0, 10)).rejects.toThrow(/larger than the store's cap of 1000 bytes/);
    await expect(capped.readWhole(tooBig.id)[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'not-stored',
    });
    expect(errors).toHaveLength(1);

    const open = capped.startStream()!;
    open.write('never ended');
    await capped.close();
    await expect(capped.read(open.id, 0, 5)).rejects.toMatchObject({ code: 'not-stored' });
    expect(capped.startStream()).toBeUndefined();
  });

  it('budgets a text kept out of memory from its ends, pointing at its stored copy', async () => {
    const stream = store.startStream()!;
    for (const piece of pieces) stream.write(piece);
    stream.end();
    const facts = {
      id: stream.id,
      length: whole.length,
      nonAsciiUnits: 3,
      utf8Bytes: Buffer.byteLength(whole),
      head: whole.slice(0, 5_000),
      tail: whole.slice(-5_000),
    };
    const standIn = spilledStandIn(facts);
    rememberSpilledText(standIn, facts);
    const budgeted = budgetToolResult([{ type: 'text', text: standIn }], { store, maxTokensPerResult: 1_000 });
    expect(budgeted.cut).toBe(true);
    expect(budgeted.storedResultId).toBe(stream.id);
    expect(budgeted.originalTokens).toBe(Math.ceil((whole.length + 9) / 4));
    const shown = (budgeted.content[0] as { text: string }).text;
    expect(estimateTokens(shown)).toBeLessThanOrEqual(1_000);
    const cut = parseCut(shown);
    expect(whole.startsWith(cut.head)).toBe(true);
    expect(whole.endsWith(cut.tail)).toBe(true);
    expect(cut.omittedCharacters).toBe(whole.length - cut.head.length - cut.tail.length);
    expect(cut.resultId).toBe(stream.id);
    const rest = await store.read(stream.id, cut.offset!, 50);
    expect(rest.text).toBe(whole.slice(cut.offset, cut.offset! + 50));
    // Claimed once: the same stand-in budgeted again is an ordinary text.
    expect(
      budgetToolResult([{ type: 'text', text: standIn }], { store, maxTokensPerResult: 1_000 }).storedResultId,
    ).not.toBe(stream.id);
  });
});
