/**
 * What each call of one conversation warned of as it went, each once, kept with the call in the transcript the UI
 * holds (not in the session file: see the README), so a page reloaded or opened later shows them beside the call as
 * the live turn did. A warning quotes what a server said (its stderr), so what is kept is bounded: a few a call, and
 * across the conversation the latest calls' up to a total, the oldest calls' warnings dropped beyond it and replaced
 * by a note that says so.
 */
import type { ToolCallPart } from '../providers/types.js';
import {
  DROPPED_WARNINGS_NOTE,
  MAX_CALL_WARNINGS,
  MAX_CONVERSATION_WARNING_CHARS,
  warningChars,
} from './call-warning-limit.js';

export interface CallWarnings {
  /** Keeps `message` (cut already) with `call`, unless it has it or its most. */
  keep(call: ToolCallPart, message: string): void;
  of(call: ToolCallPart): readonly string[] | undefined;
}

export function createCallWarnings(): CallWarnings {
  // The calls with warnings kept, the one warned of last at the end, and their warnings' characters in all.
  const kept = new Map<ToolCallPart, string[]>();
  let chars = 0;
  // Calls whose warnings were dropped: the note in their place.
  const dropped = new WeakMap<ToolCallPart, string[]>();
  const drop = (call: ToolCallPart) => {
    chars -= warningChars(kept.get(call) ?? []);
    kept.delete(call);
    dropped.set(call, [DROPPED_WARNINGS_NOTE]);
  };
  return {
    keep(call, message) {
      const warnings = kept.get(call) ?? dropped.get(call) ?? [];
      if (warnings.includes(message) || warnings.length >= MAX_CALL_WARNINGS) return;
      dropped.delete(call);
      kept.delete(call);
      kept.set(call, [...warnings, message]);
      chars += message.length;
      for (const [oldest] of kept) {
        if (chars <= MAX_CONVERSATION_WARNING_CHARS || oldest === call) break;
        drop(oldest);
      }
    },
    of: (call) => kept.get(call) ?? dropped.get(call),
  };
}
