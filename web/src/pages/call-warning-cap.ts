/**
 * The page's bound on the warnings it keeps with its calls across the tab, the server's for a conversation
 * (src/web/call-warnings.ts): beyond it the least recently warned calls' warnings are dropped, a note in their place,
 * so a long-lived tab of a server that keeps warning holds no more of them than a page read back would.
 */
import {
  DROPPED_WARNINGS_NOTE,
  MAX_CALL_WARNINGS,
  MAX_CONVERSATION_WARNING_CHARS,
  warningChars,
} from '../../../src/web/call-warning-limit.js';

export interface WarnedCall {
  warnings?: string[];
  /** When it was last warned of, counted in the tab: the latest the highest. */
  warnedAt?: number;
}

/**
 * `warned` with `message` kept among its warnings as last warned of at `warnedAt`: itself when it has the message or
 * its most already. A call's own, or a turn's of calls the page has no card of, each bounded alike.
 */
export function withWarning<T extends WarnedCall>(warned: T, message: string, warnedAt: number): T {
  const kept = warned.warnings ?? [];
  if (kept.includes(message) || kept.length >= MAX_CALL_WARNINGS) return warned;
  return { ...warned, warnings: [...kept, message], warnedAt };
}

/**
 * The calls whose warnings to drop so that the rest are within the bound: the least recently warned first, never the
 * latest (its newest warning was just kept).
 */
export function callsOverWarningCap<T extends WarnedCall>(calls: readonly T[]): Set<T> {
  const warned = calls.filter((call) => call.warnedAt !== undefined && warningChars(call.warnings ?? []) > 0);
  let chars = warned.reduce((sum, call) => sum + warningChars(call.warnings ?? []), 0);
  const dropped = new Set<T>();
  warned.sort((a, b) => (a.warnedAt ?? 0) - (b.warnedAt ?? 0));
  for (const call of warned.slice(0, -1)) {
    if (chars <= MAX_CONVERSATION_WARNING_CHARS) break;
    chars -= warningChars(call.warnings ?? []);
    dropped.add(call);
  }
  return dropped;
}

/** `calls` with the warnings of those over the bound replaced by the note; the same array when none is. */
export function capCallWarnings<T extends WarnedCall>(calls: T[], over: ReadonlySet<T>): T[] {
  if (!calls.some((call) => over.has(call))) return calls;
  return calls.map((call) => (over.has(call) ? { ...call, warnings: [DROPPED_WARNINGS_NOTE] } : call));
}

/**
 * `turns` with their warnings within the bound, a turn's own (of calls the page has no card of) counted as one more
 * call's; the same array when they are.
 */
export function capTurnWarnings<C extends WarnedCall, T extends WarnedCall & { calls: C[] }>(turns: T[]): T[] {
  const over = callsOverWarningCap<WarnedCall>([...turns, ...turns.flatMap((turn) => turn.calls)]);
  if (over.size === 0) return turns;
  return turns.map((turn) => {
    const calls = capCallWarnings<WarnedCall>(turn.calls, over) as C[];
    const own = over.has(turn) ? { warnings: [DROPPED_WARNINGS_NOTE] } : {};
    return calls === turn.calls && !over.has(turn) ? turn : { ...turn, ...own, calls };
  });
}
