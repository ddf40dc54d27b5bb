/**
 * The tool calls of this chat's conversation, numbered in the order their lines were shown, so `/expand N` can show
 * one in full. Only the newest calls are kept, so a long chat does not hold every result it ever saw.
 */
import type { CallOutcome } from '../../loop/events.js';
import type { ToolResult } from '../../providers/types.js';
import type { ToolCallView } from './tool-call-line.js';

export interface LoggedToolCall {
  number: number;
  view: ToolCallView;
  /** Both undefined for a call from a resumed conversation's saved transcript, which does not keep them. */
  outcome?: CallOutcome;
  durationMs?: number;
  /** The result as the model received it. */
  result: ToolResult;
}

export interface ToolCallLog {
  /** Records a call that ended; returns its number (1 for the first of the conversation). */
  add(call: Omit<LoggedToolCall, 'number'>): number;
  /** The calls of a resumed conversation's transcript: numbered first, so new calls continue after them. */
  restore(calls: ReadonlyArray<Omit<LoggedToolCall, 'number'>>): void;
  /** How many of the numbers are calls made before the conversation was resumed (0 when it was not). */
  restoredCount(): number;
  /** Call `number`, or the last one when `number` is undefined; undefined when it is not (or no longer) kept. */
  get(number?: number): LoggedToolCall | undefined;
  /** The numbers kept, oldest first. */
  numbers(): number[];
  /** A new conversation: numbering starts again at 1. */
  clear(): void;
}

/** How many calls are kept for `/expand`. */
const KEPT_CALLS = 100;

export function createToolCallLog(kept = KEPT_CALLS): ToolCallLog {
  let calls: LoggedToolCall[] = [];
  let next = 1;
  let restored = 0;
  const add = (call: Omit<LoggedToolCall, 'number'>): number => {
    const number = next++;
    calls.push({ ...call, number });
    if (calls.length > kept) calls = calls.slice(-kept);
    return number;
  };
  return {
    add,
    restore(saved) {
      for (const call of saved) add(call);
      restored += saved.length;
    },
    restoredCount: () => restored,
    get(number) {
      return number === undefined ? calls.at(-1) : calls.find((call) => call.number === number);
    },
    numbers: () => calls.map((call) => call.number),
    clear() {
      calls = [];
      next = 1;
      restored = 0;
    },
  };
}
