/**
 * The tool calls of a transcript that have their result in it, in the order the model made them, each with that
 * result. A chat numbers a conversation's calls in this order from 1, so a resumed one numbers its new calls after
 * these, and the terminal and the web UI give a call the same number.
 */
import type { Message, ToolCallPart, ToolResult } from '../providers/types.js';

export interface AnsweredToolCall {
  call: ToolCallPart;
  result: ToolResult;
}

export function answeredToolCalls(history: readonly Message[]): AnsweredToolCall[] {
  const results = new Map<string, ToolResult>();
  for (const message of history) {
    if (message.role === 'tool') for (const result of message.results) results.set(result.callId, result);
  }
  const answered: AnsweredToolCall[] = [];
  for (const message of history) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const result = results.get(part.id);
      if (result !== undefined) answered.push({ call: part, result });
    }
  }
  return answered;
}
