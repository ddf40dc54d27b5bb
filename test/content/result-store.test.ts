/**
 * The result store (round trip, slices, bounds, errors, owner-only files), the `read_stored_result` host tool,
 * and budgetToolResult, which stores what it cuts: following the notices gives back the whole text.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetToolResult } from '../../src/content/budget-tool-result.js';
import { applyOutputBudget } from '../../src/content/output-budget.js';
import { handleReadStoredResult, readStoredResultTool } from '../../src/content/read-stored-result-tool.js';
import {
  createResultStore,
  MAX_STORED_READ_LENGTH,
  type ResultStore,
  ResultStoreError,
} from '../../src/content/result-store.js';
import type { ToolResultPart } from '../../src/providers/types.js';
import { parseCut } from './notice.js';

let directory: string;
let store: ResultStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'result-store-test-'));
  store = createResultStore(join(directory, 'results'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function numberedText(characters: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const line = `row ${String(index).padStart(10, '0')} data\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('').slice(0, characters);
}

async function readError(promise: Promise<unknown>): Promise<ResultStoreError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ResultStoreError)) throw new Error(`expected a ResultStoreError, got ${String(error)}`);
  return error;
}

function answerText(answer: { content: ToolResultPart[] }): string {
  const part = answer.content[0];
  if (part?.type !== 'text') throw new Error('expected a text answer');
  return part.text;
}

describe('result store', () => {
  it('stores a text and reads it back in slices', async () => {
    const text = numberedText(1_000);
    const id = await store.save(text);
    expect(id).toMatch(/^res_[A-Za-z0-9_-]{24}$/);

    expect(await store.read(id, 0, 100)).toEqual({
      id,
      offset: 0,
      text: text.slice(0, 100),
      totalLength: 1_000,
      nextOffset: 100,
      hasMore: true,
    });
    const last = await store.read(id, 900, 500);
    expect(last.text).toBe(text.slice(900));
    expect(last).toMatchObject({ nextOffset: 1_000, hasMore: false });
  });

  it('gives every result its own random id', async () => {
    const ids = await Promise.all([store.save('a'), store.save('a'), store.save('a')]);
    expect(new Set(ids).size).toBe(3);
  });

  it('keeps non-ASCII text exactly and does not end a slice inside a surrogate pair', async () => {
    const text = 'a😀b漢字';
    const id = await store.save(text);
    const first = await store.read(id, 0, 2);
    expect(first).toMatchObject({ text: 'a', nextOffset: 1, hasMore: true });
    const second = await store.read(id, first.nextOffset, 10);
    expect(second.text).toBe('😀b漢字');
  });

  it('shortens a read to the maximum slice length', async () => {
    const text = numberedText(MAX_STORED_READ_LENGTH + 5_000);
    const id = await store.save(text);
    const slice = await store.read(id, 0, MAX_STORED_READ_LENGTH * 3);
    expect(slice.text.length).toBe(MAX_STORED_READ_LENGTH);
    expect(slice).toMatchObject({ nextOffset: MAX_STORED_READ_LENGTH, hasMore: true });
  });

  it('writes owner-only files as UTF-16LE with a byte-order mark, in an owner-only directory', async () => {
    const id = await store.save('héllo');
    const path = store.pathOf(id);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(store.directory)).mode & 0o777).toBe(0o700);
    const bytes = await readFile(path);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xfe]);
    expect(bytes.subarray(2).toString('utf16le')).toBe('héllo');
  });

  it('hands out an id at once and writes in the background', async () => {
    const id = store.startSave('written later');
    expect((await store.read(id, 0, 100)).text).toBe('written later');
    const other = store.startSave('flushed');
    await store.flush();
    expect(await readFile(store.pathOf(other))).toHaveLength(2 + 'flushed'.length * 2);
  });

  it('reports a failed background write and answers reads of it with an error', async () => {
    const blocked = join(directory, 'not-a-directory');
    await writeFile(blocked, 'a file where the store directory should be');
    const failures: string[] = [];
    const broken = createResultStore(blocked, { onWriteError: (_error, id) => failures.push(id) });
    const id = broken.startSave('lost');
    await broken.flush();
    expect(failures).toEqual([id]);
    const error = await readError(broken.read(id, 0, 10));
    expect(error.code).toBe('not-stored');
    const answer = await handleReadStoredResult(broken, { id, offset: 0, length: 10 });
    expect(answer.isError).toBe(true);
    expect(answerText(answer)).toContain('could not be stored');
    await expect(broken.save('also lost')).rejects.toThrow();
  });

  it('rejects malformed and unknown ids with errors that say what to send', async () => {
    const malformed = await readError(store.read('../../etc/passwd', 0, 10));
    expect(malformed.code).toBe('invalid-id');
    expect(malformed.message).toContain('use the id exactly as');
    const unknown = await readError(store.read(`res_${'A'.repeat(24)}`, 0, 10));
    expect(unknown.code).toBe('unknown-id');
    expect(unknown.message).toContain('No stored result has the id');
  });

  it('rejects offsets past the end and invalid ranges', async () => {
    const id = await store.save('0123456789');
    const past = await readError(store.read(id, 10, 5));
    expect(past.code).toBe('offset-out-of-range');
    expect(past.message).toContain('has 10 characters; use an offset from 0 to 9');
    expect((await readError(store.read(id, -1, 5))).code).toBe('invalid-range');
    expect((await readError(store.read(id, 0, 0))).code).toBe('invalid-range');
    expect((await readError(store.read(id, 1.5, 5))).code).toBe('invalid-range');
  });
});

describe('read_stored_result', () => {
  it('is offered to the model with an id, an offset and a length', () => {
    expect(readStoredResultTool.name).toBe('mcp-host__read_stored_result');
    expect(readStoredResultTool.inputSchema).toMatchObject({
      type: 'object',
      required: ['id', 'offset', 'length'],
      properties: {
        id: { type: 'string' },
        offset: { type: 'integer', minimum: 0 },
        length: { type: 'integer', minimum: 1, maximum: MAX_STORED_READ_LENGTH },
      },
    });
    expect(readStoredResultTool.description).toContain('too long to show in full');
  });

  it('answers a slice with a line saying where it sits and where to continue', async () => {
    const text = numberedText(300);
    const id = await store.save(text);
    const answer = await handleReadStoredResult(store, { id, offset: 100, length: 50 });
    expect(answer.isError).toBe(false);
    expect(answerText(answer)).toBe(
      `[stored result ${id}: characters 100 to 149 of 300; 150 more remain; continue with offset 150.]\n${text.slice(100, 150)}`,
    );
    const end = await handleReadStoredResult(store, { id, offset: 250, length: 100 });
    expect(answerText(end)).toBe(
      `[stored result ${id}: characters 250 to 299 of 300; this is the end of the result.]\n${text.slice(250)}`,
    );
  });

  it('answers bad arguments, unknown ids and offsets past the end with error results', async () => {
    const id = await store.save('0123456789');
    const cases: Array<[unknown, RegExp]> = [
      ['not an object', /Arguments must be an object/],
      [{ offset: 0, length: 5 }, /"id" must be/],
      [{ id, offset: -1, length: 5 }, /"offset" must be an integer of at least 0, got -1/],
      [{ id, offset: '3', length: 5 }, /"offset" must be an integer/],
      [{ id, offset: 0, length: 0 }, /"length" must be an integer of at least 1, got 0/],
      [{ id: 'res_nope', offset: 0, length: 5 }, /is not a stored result id/],
      [{ id: `res_${'B'.repeat(24)}`, offset: 0, length: 5 }, /No stored result has the id/],
      [{ id, offset: 99, length: 5 }, /past the end/],
    ];
    for (const [args, message] of cases) {
      const answer = await handleReadStoredResult(store, args);
      expect(answer.isError, JSON.stringify(args)).toBe(true);
      expect(answerText(answer)).toMatch(/^mcp-host__read_stored_result: /);
      expect(answerText(answer)).toMatch(message);
    }
  });
});

describe('budgetToolResult', () => {
  it('stores nothing for a result within budget', async () => {
    const parts: ToolResultPart[] = [{ type: 'text', text: 'fine' }];
    const budgeted = budgetToolResult(parts, { store });
    expect(budgeted).toEqual({ content: parts, cut: false, originalTokens: 1, keptTokens: 1 });
  });

  it('passes a result within its allowance on exactly as the output budget would, up to the last token', () => {
    const parts: ToolResultPart[] = [
      { type: 'text', text: 'ünïcode and ascii '.repeat(50) },
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      { type: 'text', text: '' },
    ];
    const whole = applyOutputBudget(parts, { maxTokens: 1_000_000, imageTokenCost: 7 });
    for (const maxTokensPerResult of [whole.originalTokens, whole.originalTokens + 0.5, 1_000_000]) {
      const budgeted = budgetToolResult(parts, { store, maxTokensPerResult, imageTokenCost: 7 });
      expect(budgeted).toEqual(applyOutputBudget(parts, { maxTokens: maxTokensPerResult, imageTokenCost: 7 }));
      expect(budgeted.cut).toBe(false);
    }
    expect(
      budgetToolResult(parts, { store, maxTokensPerResult: whole.originalTokens - 1, imageTokenCost: 7 }).cut,
    ).toBe(true);
  });

  it('stores a cut result so that following the notice gives back every left-out character', async () => {
    const original = numberedText(350_000);
    const budgeted = budgetToolResult([{ type: 'text', text: original }], { store, maxTokensPerResult: 2_000 });
    expect(budgeted.cut).toBe(true);
    expect(budgeted.keptTokens).toBeLessThanOrEqual(2_000);
    const cut = parseCut((budgeted.content[0] as { text: string }).text);
    expect(cut.resultId).toBe(budgeted.storedResultId);

    let offset = cut.offset as number;
    let length = cut.length as number;
    const middle: string[] = [];
    for (let reads = 0; offset < cut.head.length + cut.omittedCharacters; reads++) {
      expect(reads).toBeLessThan(10);
      const answer = await handleReadStoredResult(store, { id: cut.resultId, offset, length });
      expect(answer.isError).toBe(false);
      const text = answerText(answer);
      const header = /^\[stored result \S+: characters (\d+) to (\d+) of (\d+);[^\n]*\]\n/.exec(text);
      expect(header?.[3]).toBe(String(original.length));
      middle.push(text.slice(header?.[0].length));
      offset = Number(header?.[2]) + 1;
      length = MAX_STORED_READ_LENGTH;
    }
    const rebuilt = cut.head + middle.join('').slice(0, cut.omittedCharacters) + cut.tail;
    expect(rebuilt).toBe(original);
  });

  it('does not store an over-budget result that has no text', async () => {
    const budgeted = budgetToolResult([{ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }], {
      store,
      maxTokensPerResult: 100,
    });
    expect(budgeted.cut).toBe(true);
    expect(budgeted.storedResultId).toBeUndefined();
    expect(budgeted.content[0]).toMatchObject({ type: 'text' });
  });
});

describe('the store belongs to one session', () => {
  it('keeps at most maxBytes, deleting the oldest results first', async () => {
    const folder = join(directory, 'capped');
    // 200 characters take 402 bytes on disk: two fit under 1,000 bytes, three do not.
    const capped = createResultStore(folder, { maxBytes: 1_000 });
    const first = await capped.save('a'.repeat(200));
    const second = await capped.save('b'.repeat(200));
    const third = await capped.save('c'.repeat(200));
    await capped.flush();
    expect(capped.storedBytes).toBe(804);
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(folder)).sort()).toEqual([`${second}.txt`, `${third}.txt`].sort());
    const evicted = await readError(capped.read(first, 0, 10));
    expect(evicted.code).toBe('not-stored');
    expect(evicted.message).toContain('at most 1000 bytes');
    expect((await capped.read(third, 0, 3)).text).toBe('ccc');
  });

  it('does not keep a text larger than the cap', async () => {
    const failures: string[] = [];
    const capped = createResultStore(join(directory, 'small'), {
      maxBytes: 100,
      onWriteError: (error) => failures.push(error.message),
    });
    const id = capped.startSave('x'.repeat(100));
    expect((await readError(capped.read(id, 0, 10))).code).toBe('not-stored');
    expect(failures.join('\n')).toContain("larger than the store's cap of 100 bytes");
  });

  it('deletes its folder on close', async () => {
    const folder = join(directory, 'session');
    const session = createResultStore(folder);
    const id = session.startSave('kept only for this session');
    await session.close();
    await expect(stat(folder)).rejects.toThrow();
    expect((await readError(session.read(id, 0, 4))).code).toBe('unknown-id');
  });
});
