/**
 * 5 MB and 20 MB results (one JSON-RPC line each, arriving in 64 KB pieces) through the host: parsed in linear
 * time, the model sees at most the budget plus a notice, the whole result is kept, and the model reads the rest
 * through `read_stored_result` in its next turn. The 20 MB text is over the size the host holds in memory (8 MB,
 * `SPILL_MIN_CHARS`): it is written to the result store as it arrives, and the raw result carries a stand-in naming
 * the stored copy.
 * Budgets are set globally, per server, per tool and per turn.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SPILL_KEPT_EDGE_CHARS, SPILL_MIN_CHARS } from '../../src/connections/spilled-text.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../../src/content/default-result-budget.js';
import { estimateTokens } from '../../src/content/linear-token-estimate.js';
import type { AgentEvent } from '../../src/loop/events.js';
import { parseCut } from '../content/notice.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, freshDirectory, openFaultHost, resultText } from './fault-helpers.js';
import { createTurnProvider, lastToolResults, toolCall } from './turn-provider.js';

afterEach(closeHosts);

const bigResult = fixtureServerPath('big-result');
const allowBig = { permissions: { allow: ['big__*'], ask: [], deny: [] } };

/** The full text of a stored result, straight from its file (UTF-16LE after a byte-order mark). */
function storedText(stateDir: string, id: string): string {
  const results = join(stateDir, 'results');
  for (const session of readdirSync(results)) {
    const names = readdirSync(join(results, session));
    if (names.includes(`${id}.txt`)) return readFileSync(join(results, session, `${id}.txt`)).toString('utf16le', 2);
  }
  throw new Error(`no stored result ${id} under ${results}`);
}

describe('very large tool results', () => {
  // 20 MB is well past the 8 MB the host holds in memory, as 50 MB is, for less than half the time.
  for (const megabytes of [5, 20]) {
    it(`shows the model ${megabytes} MB within the budget and lets it read the rest`, { timeout: 90_000 }, async () => {
      const provider = createTurnProvider([
        () => [toolCall('big', 'big__big_text', { megabytes })],
        (request) => {
          const cut = parseCut(resultText(lastToolResults(request)[0]!));
          return [
            toolCall('read', 'mcp-host__read_stored_result', { id: cut.resultId, offset: cut.offset, length: 200 }),
          ];
        },
        () => [{ type: 'text', text: 'read it' }],
      ]);
      const stateDir = freshDirectory('mcp-host-big-results-');
      const host = await openFaultHost(
        hostConfig([stdioServer('big', [bigResult], { timeoutMs: 120_000 })], allowBig),
        { provider, stateDir },
      );
      const events: AgentEvent[] = [];
      const started = performance.now();
      const result = await host.run('fetch the big text', { onEvent: (event) => events.push(event) });
      const elapsed = performance.now() - started;
      console.info(
        `${megabytes} MB result: run took ${Math.round(elapsed)} ms; calls took ${events.flatMap((event) => (event.type === 'tool-call-end' ? [event.durationMs] : [])).join(', ')} ms`,
      );
      expect(result.stopReason).toBe('end');
      expect(result.text).toBe('read it');

      const ends = events.filter((event) => event.type === 'tool-call-end');
      expect(ends.map((event) => event.outcome)).toEqual(['ok', 'ok']);
      const raw = ends[0]!.rawResult as { content: Array<{ text: string }> };
      const rawText = raw.content[0]!.text;

      // What the model was shown: the budget, head and tail, and a notice naming the stored copy.
      const shown = resultText(lastToolResults(provider.requests[1]!)[0]!);
      expect(estimateTokens(shown)).toBeLessThanOrEqual(DEFAULT_RESULT_TOKEN_BUDGET);
      const cut = parseCut(shown);
      const original = storedText(stateDir, cut.resultId!);
      expect(original.length).toBe(megabytes * 1024 * 1024);
      expect(original.startsWith('BEGIN big result\nline 0000001 ')).toBe(true);
      expect(original.endsWith('\nEND big result')).toBe(true);
      if (original.length > SPILL_MIN_CHARS) {
        // Never held whole: the raw result has the two kept ends around a notice naming the stored copy.
        expect(rawText.startsWith(original.slice(0, SPILL_KEPT_EDGE_CHARS))).toBe(true);
        expect(rawText.endsWith(original.slice(-SPILL_KEPT_EDGE_CHARS))).toBe(true);
        expect(rawText).toContain(`its full text is stored result ${cut.resultId}.]`);
        expect(rawText.length).toBeLessThan(2 * SPILL_KEPT_EDGE_CHARS + 500);
      } else {
        expect(rawText).toBe(original);
      }
      expect(original.startsWith(cut.head)).toBe(true);
      expect(original.endsWith(cut.tail)).toBe(true);
      expect(cut.omittedCharacters).toBe(original.length - cut.head.length - cut.tail.length);
      expect(provider.requests[1]!.tools.map((tool) => tool.name)).toContain('mcp-host__read_stored_result');

      // The next turn read a slice of the full result back.
      const read = lastToolResults(provider.requests[2]!)[0]!;
      expect(read.isError).toBe(false);
      const slice = resultText(read).split('\n').slice(1).join('\n');
      expect(slice).toBe(original.slice(cut.offset, (cut.offset as number) + 200));
    });
  }
});

describe('output budget settings', () => {
  it('applies the global, per-server, per-tool and per-turn budgets', async () => {
    const provider = createTurnProvider([
      () => [1, 2, 3].map((index) => toolCall(`c${index}`, 'global__big_text', { megabytes: 0.05 })),
      () => [{ type: 'text', text: 'done' }],
    ]);
    const big = (name: string, extra = {}) => stdioServer(name, [bigResult], extra);
    const host = await openFaultHost(
      hostConfig(
        [
          big('global'),
          big('server', { maxResultTokens: 1_000 }),
          big('tool', { maxResultTokens: 1_000, tools: { big_text: { maxResultTokens: 500 } } }),
        ],
        {
          maxResultTokens: 2_000,
          maxTurnResultTokens: 3_000,
          permissions: { allow: ['global__*'], ask: [], deny: [] },
        },
      ),
      { provider },
    );
    // About 13,000 tokens each, so every budget cuts.
    const shownTokens = async (server: string) => {
      const call = await host.callTool(`${server}__big_text`, { megabytes: 0.05 });
      expect(call.outcome).toBe('ok');
      const text = resultText(call.result);
      expect(parseCut(text).omittedCharacters).toBeGreaterThan(0);
      return estimateTokens(text);
    };
    const [global, server, tool] = await Promise.all([
      shownTokens('global'),
      shownTokens('server'),
      shownTokens('tool'),
    ]);
    expect(global).toBeLessThanOrEqual(2_000);
    expect(global).toBeGreaterThan(1_500);
    expect(server).toBeLessThanOrEqual(1_000);
    expect(server).toBeGreaterThan(750);
    expect(tool).toBeLessThanOrEqual(500);
    expect(tool).toBeGreaterThan(350);

    // Three results in one turn share the turn's 3,000 tokens.
    const result = await host.run('three at once');
    expect(result.stopReason).toBe('end');
    const shown = lastToolResults(provider.requests[1]!).map((entry) => estimateTokens(resultText(entry)));
    expect(shown).toHaveLength(3);
    for (const tokens of shown) {
      expect(tokens).toBeLessThanOrEqual(1_000);
      expect(tokens).toBeGreaterThan(750);
    }
  });
});
