/**
 * End to end through the real protocol: a 5 MB result from the big-result fixture server, mapped and
 * budgeted; the model-facing content stays within the default budget and the stored copy is the whole result.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { budgetToolResult } from '../../src/content/budget-tool-result.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../../src/content/default-result-budget.js';
import { mapToolResult } from '../../src/content/map-tool-result.js';
import { handleReadStoredResult } from '../../src/content/read-stored-result-tool.js';
import { createResultStore } from '../../src/content/result-store.js';
import { firstText, startSdkSession, stopAll } from './fixture-sessions.js';
import { parseCut } from './notice.js';

const directories: string[] = [];

afterEach(async () => {
  await stopAll();
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

describe('a 5 MB tool result from a real server', () => {
  it('reaches the model within budget, with the rest readable from the store', { timeout: 120_000 }, async () => {
    const directory = await mkdtemp(join(tmpdir(), 'big-result-budget-'));
    directories.push(directory);
    const store = createResultStore(directory);
    const { client } = await startSdkSession('big-result', { maxBufferSize: 16 * 1024 * 1024 });
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'big_text') ?? {};

    const result = await client.callTool({ name: 'big_text', arguments: { megabytes: 5 } });
    const original = firstText(result);
    const mapped = mapToolResult(result, tool);
    const budgeted = budgetToolResult(mapped.content, { store });

    expect(budgeted.originalTokens).toBe(Math.ceil(original.length / 4));
    expect(budgeted.keptTokens).toBeLessThanOrEqual(DEFAULT_RESULT_TOKEN_BUDGET);
    const cut = parseCut(firstText(budgeted));
    expect(cut.head.startsWith('BEGIN big result\nline 0000001 ')).toBe(true);
    expect(cut.tail.endsWith('\nEND big result')).toBe(true);

    const answer = await handleReadStoredResult(store, { id: cut.resultId, offset: cut.offset, length: 64 });
    expect(answer.isError).toBe(false);
    const slice = firstText(answer).split('\n').slice(1).join('\n');
    expect(slice).toBe(original.slice(cut.offset, (cut.offset as number) + 64));

    const whole = await store.read(cut.resultId as string, original.length - 100, 100);
    expect(whole.totalLength).toBe(original.length);
    expect(whole.text).toBe(original.slice(-100));
  });
});
