/**
 * The tool calls of a transcript that have their result in it, in the order the model made them, each with that
 * result. A chat numbers a conversation's calls in this order from 1, so a resumed one numbers its new calls after
 * these, and the terminal and the web UI give a call the same number.
 *
 * A result answers a call of the nearest model answer before it, as every provider's wire pairs them: call ids are
 * unique only within one answer (local OpenAI-compatible servers send `call_0` at every turn), so an id alone could
 * give an earlier call a later call's result.
 */
import type { Message, ToolCallPart, ToolResult } from '../providers/types.js';

export interface AnsweredToolCall {
  call: ToolCallPart;
  result: ToolResult;
}

export interface PairedToolCall {
  call: ToolCallPart;
  /** Undefined while the call has no result in the transcript. */
  result: ToolResult | undefined;
}

export function answeredToolCalls(history: readonly Message[]): AnsweredToolCall[] {
  return pairedToolCalls(history).filter((entry): entry is AnsweredToolCall => entry.result !== undefined);
}

/** Every call of the transcript, in the order the model made them, with the result its turn gave it, if any. */
export function pairedToolCalls(history: readonly Message[]): PairedToolCall[] {
  const paired: PairedToolCall[] = [];
  // The calls of the latest model answer not answered yet: an id made twice in one answer is answered in order.
  let open: PairedToolCall[] = [];
  for (const message of history) {
    if (message.role === 'assistant') {
      open = message.content
        .filter((part): part is ToolCallPart => part.type === 'tool-call')
        .map((call) => ({ call, result: undefined }));
      paired.push(...open);
    } else if (message.role === 'tool') {
      for (const result of message.results) {
        const at = open.findIndex((entry) => entry.call.id === result.callId);
        if (at === -1) continue;
        open[at]!.result = result;
        open.splice(at, 1);
      }
    }
  }
  return paired;
}
