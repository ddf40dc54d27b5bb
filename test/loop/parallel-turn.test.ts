/** One turn with several calls, one slow: all run at once and come back in call order, in one message. */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import type { ToolResultsMessage } from '../../src/providers/types.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';

const flexible = bundledFixture(`${repoRoot}/test/fixtures/host/flexible-server.mjs`);

describe('a parallel turn', () => {
  it('runs the calls concurrently and returns every result in call order in one message', async () => {
    const provider = createScriptedProvider({
      scenarios: [
        {
          turns: [
            {
              toolCalls: [
                { id: 'slow', name: 'timer__sleep', arguments: { ms: 900 } },
                { id: 'fast', name: 'timer__sleep', arguments: { ms: 50 } },
                { id: 'bad', name: 'timer__nope', arguments: {} },
                { id: 'medium', name: 'timer__sleep', arguments: { ms: 300 } },
              ],
            },
            { text: 'done' },
          ],
        },
      ],
    });
    const host = await createHost({
      config: hostConfig([stdioServer('timer', [flexible])], {
        permissions: { allow: ['timer__*'], ask: [], deny: [] },
      }),
      provider,
    });
    try {
      const result = await host.run('go');
      const toolMessages = result.messages.filter((message): message is ToolResultsMessage => message.role === 'tool');
      expect(toolMessages).toHaveLength(1);
      const results = toolMessages[0]!.results;
      expect(results.map((entry) => entry.callId)).toEqual(['slow', 'fast', 'bad', 'medium']);
      expect(results.map((entry) => entry.isError)).toEqual([false, false, true, false]);
      const intervals = [results[0], results[1], results[3]].map(
        (entry) => JSON.parse((entry!.content[0] as { text: string }).text) as { started: number; ended: number },
      );
      // Concurrency, measured by the server: every call started before the first one ended.
      const firstEnd = Math.min(...intervals.map((interval) => interval.ended));
      for (const interval of intervals) expect(interval.started).toBeLessThanOrEqual(firstEnd);
      expect(result.text).toBe('done');
    } finally {
      await host.close();
    }
  });

  it("runs more than ten calls at once on the caller's signal without Node warning of a listener leak", async () => {
    const calls = Array.from({ length: 16 }, (_, index) => ({
      id: `c${index}`,
      name: 'timer__sleep',
      arguments: { ms: 20 },
    }));
    const provider = createScriptedProvider({ scenarios: [{ turns: [{ toolCalls: calls }, { text: 'ok' }] }] });
    const host = await createHost({
      config: hostConfig([stdioServer('timer', [flexible])], {
        permissions: { allow: ['timer__*'], ask: [], deny: [] },
      }),
      provider,
      maxParallelCalls: 16,
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const caller = new AbortController();
      const result = await host.run('go', { signal: caller.signal });
      expect(result.stopReason).toBe('end');
      const results = (result.messages.find((message) => message.role === 'tool') as ToolResultsMessage).results;
      expect(results.filter((entry) => !entry.isError)).toHaveLength(16);
      // Node emits a warning on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await host.close();
    }
  });

  it('bounds the number of calls in flight', async () => {
    const calls = Array.from({ length: 4 }, (_, index) => ({
      id: `c${index}`,
      name: 'timer__sleep',
      arguments: { ms: 200 },
    }));
    const provider = createScriptedProvider({ scenarios: [{ turns: [{ toolCalls: calls }, { text: 'ok' }] }] });
    const host = await createHost({
      config: hostConfig([stdioServer('timer', [flexible])], {
        permissions: { allow: ['timer__*'], ask: [], deny: [] },
      }),
      provider,
      maxParallelCalls: 2,
    });
    try {
      const result = await host.run('go');
      const results = (result.messages.find((message) => message.role === 'tool') as ToolResultsMessage).results;
      const intervals = results
        .map((entry) => JSON.parse((entry.content[0] as { text: string }).text) as { started: number; ended: number })
        .sort((left, right) => left.started - right.started);
      // With two slots, the third call starts only after one of the first two ended.
      expect(intervals[2]!.started).toBeGreaterThanOrEqual(Math.min(intervals[0]!.ended, intervals[1]!.ended));
    } finally {
      await host.close();
    }
  });

  it('stops a model that keeps calling tools at the turn bound', async () => {
    const turns = Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'timer__pid', arguments: {} }] }));
    const provider = createScriptedProvider({ scenarios: [{ turns }] });
    const host = await createHost({
      config: hostConfig([stdioServer('timer', [flexible])], {
        permissions: { allow: ['timer__*'], ask: [], deny: [] },
      }),
      provider,
      maxTurns: 3,
    });
    try {
      const result = await host.run('loop forever');
      expect(result.stopReason).toBe('max-turns');
      expect(result.turns).toBe(3);
      expect(result.message).toContain('3 turns');
    } finally {
      await host.close();
    }
  });

  it('says a bound of one turn in the singular', async () => {
    const provider = createScriptedProvider({ scenarios: [{ turns: [{ toolCalls: [{ name: 'timer__pid' }] }] }] });
    const host = await createHost({
      config: hostConfig([stdioServer('timer', [flexible])], {
        permissions: { allow: ['timer__*'], ask: [], deny: [] },
      }),
      provider,
      maxTurns: 1,
    });
    try {
      const result = await host.run('once');
      expect(result.stopReason).toBe('max-turns');
      expect(result.message).toContain('stopped after 1 turn:');
    } finally {
      await host.close();
    }
  });
});
