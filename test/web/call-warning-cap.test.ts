import { describe, expect, it } from 'vitest';
import {
  DROPPED_WARNINGS_NOTE,
  MAX_CALL_WARNINGS,
  MAX_CONVERSATION_WARNING_CHARS,
} from '../../src/web/call-warning-limit.js';
import { createCallWarnings } from '../../src/web/call-warnings.js';
import {
  callsOverWarningCap,
  capCallWarnings,
  capTurnWarnings,
  type WarnedCall,
  withWarning,
} from '../../web/src/pages/call-warning-cap.js';

/** A warning a quarter of the bound long. */
const quarter = (text: string) => text.padEnd(MAX_CONVERSATION_WARNING_CHARS / 4, '.');

describe("the page's bound on its calls' warnings", () => {
  it('drops the least recently warned calls beyond it, as the server does, never the latest', () => {
    let calls: WarnedCall[] = [];
    let at = 0;
    const warn = (index: number, message: string) => {
      at += 1;
      calls[index] = { warnings: [...(calls[index]?.warnings ?? []), message], warnedAt: at };
      calls = capCallWarnings(calls, callsOverWarningCap(calls));
    };
    const server = createCallWarnings();
    const parts = [0, 1, 2, 3, 4].map((index) => ({
      type: 'tool-call' as const,
      id: 'call_0',
      name: 'server__tool',
      argumentsText: `{"n":${index}}`,
    }));
    const both = (index: number, message: string) => {
      warn(index, message);
      server.keep(parts[index]!, message);
    };
    for (const index of [0, 1, 2, 3]) both(index, quarter(`call ${index}`));
    expect(calls.every((call) => call.warnings?.[0] !== DROPPED_WARNINGS_NOTE)).toBe(true);
    // The first call warned again, past the bound: the second, now the least recently warned, goes first.
    both(0, 'again');
    expect(calls.map((call) => call.warnings?.[0] === DROPPED_WARNINGS_NOTE)).toEqual([false, true, false, false]);
    both(4, quarter('call 4'));
    expect(calls.map((call) => call.warnings?.[0] === DROPPED_WARNINGS_NOTE)).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    for (const [index, call] of calls.entries()) expect(call.warnings).toEqual(server.of(parts[index]!));
  });

  it('keeps a single call whose warnings alone pass the bound', () => {
    const calls: WarnedCall[] = [
      { warnings: [quarter('a'), quarter('b'), quarter('c'), quarter('d'), 'e'], warnedAt: 1 },
    ];
    expect(callsOverWarningCap(calls).size).toBe(0);
  });

  it("bounds a turn's warnings of calls it has no card of as one call's: in number, and in characters across the tab", () => {
    type Turn = WarnedCall & { calls: WarnedCall[] };
    let at = 0;
    let turn: Turn = { calls: [] };
    for (let n = 0; n < MAX_CALL_WARNINGS + 5; n += 1) {
      at += 1;
      turn = withWarning(turn, `warning ${n}`, at);
    }
    expect(turn.warnings).toHaveLength(MAX_CALL_WARNINGS);
    expect(withWarning(turn, 'warning 0', at + 1)).toBe(turn);

    // A turn's own warnings, least recently warned, go first once a card's pass the bound.
    let turns: Turn[] = [{ calls: [], warnings: [quarter('a'), quarter('b'), quarter('c')], warnedAt: 1 }];
    turns = capTurnWarnings(turns);
    expect(turns[0]?.warnings).toHaveLength(3);
    turns = capTurnWarnings([...turns, { calls: [{ warnings: [quarter('d'), quarter('e')], warnedAt: 2 }] }]);
    expect(turns[0]?.warnings).toEqual([DROPPED_WARNINGS_NOTE]);
    expect(turns[1]?.calls[0]?.warnings).toHaveLength(2);
  });
});
