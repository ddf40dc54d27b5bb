/**
 * The tool calls of this chat's conversation, numbered in the order the model made them, as a resumed chat and the web
 * UI number a transcript's calls: a call's number is fixed when the model's answer lists it, though the parallel calls
 * of a turn end (and their lines show) in any order. `/expand N` shows one in full. Only the newest calls are kept, so
 * a long chat does not hold every result it ever saw.
 */
import type { CallOutcome } from '../../loop/events.js';
import type { ToolResult } from '../../providers/types.js';
import type { ToolCallView } from './tool-call-line.js';

export interface LoggedToolCall {
  number: number;
  view: ToolCallView;
  /**
   * Both undefined for a call known only from the saved transcript: one from before a resume, or one whose turn
   * stopped before it ended (the transcript answers it).
   */
  outcome?: CallOutcome;
  durationMs?: number;
  /** The result as the model received it. */
  result: ToolResult;
}

export interface ToolCallLog {
  /** Numbers the calls a model's answer makes, in the order it lists them, before any of them has ended. */
  listed(callIds: readonly string[]): void;
  /** Records a call that ended; returns its number (the one `listed` gave it, else the next). */
  add(call: Omit<LoggedToolCall, 'number'>, callId?: string): number;
  /** The calls listed that have not been recorded as ended, in the order the model made them. */
  unfinished(): string[];
  /**
   * The calls of a resumed conversation's transcript: numbered first, after the `compacted` calls its summary stands
   * for, so they keep the numbers they had and new calls continue after them.
   */
  restore(calls: ReadonlyArray<Omit<LoggedToolCall, 'number'>>, compacted?: number): void;
  /** How many of the numbers are calls made before the conversation was resumed (0 when it was not). */
  restoredCount(): number;
  /** How many of those a compaction had summarised before the resume: the transcript keeps none of them. */
  compactedBeforeResume(): number;
  /** Call `number`, or the last one when `number` is undefined; undefined when it is not (or no longer) kept. */
  get(number?: number): LoggedToolCall | undefined;
  /** The numbers kept, lowest first. */
  numbers(): number[];
  /** A new conversation: numbering starts again at 1. */
  clear(): void;
}

/** How many calls are kept for `/expand`. */
const KEPT_CALLS = 100;

export function createToolCallLog(kept = KEPT_CALLS): ToolCallLog {
  // Lowest number first: a call that ends late goes in at its place.
  let calls: LoggedToolCall[] = [];
  const numbered = new Map<string, number>();
  let next = 1;
  let restored = 0;
  let compactedBefore = 0;
  const add = (call: Omit<LoggedToolCall, 'number'>, callId?: string): number => {
    const listedAs = callId === undefined ? undefined : numbered.get(callId);
    if (callId !== undefined) numbered.delete(callId);
    const number = listedAs ?? next++;
    let at = calls.length;
    while (at > 0 && calls[at - 1]!.number > number) at -= 1;
    calls.splice(at, 0, { ...call, number });
    if (calls.length > kept) calls = calls.slice(-kept);
    return number;
  };
  return {
    listed(callIds) {
      for (const id of callIds) if (!numbered.has(id)) numbered.set(id, next++);
    },
    add,
    unfinished: () => [...numbered.keys()],
    restore(saved, compacted = 0) {
      next += compacted;
      for (const call of saved) add(call);
      restored += compacted + saved.length;
      compactedBefore += compacted;
    },
    restoredCount: () => restored,
    compactedBeforeResume: () => compactedBefore,
    get(number) {
      return number === undefined ? calls.at(-1) : calls.find((call) => call.number === number);
    },
    numbers: () => calls.map((call) => call.number),
    clear() {
      calls = [];
      numbered.clear();
      next = 1;
      restored = 0;
      compactedBefore = 0;
    },
  };
}
