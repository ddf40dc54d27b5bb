/**
 * The tool calls already in a resumed conversation's transcript, in the order the model made them, each with the
 * result it received: so the chat numbers its new calls after them and `/expand` can show them. How long a call
 * took and how it ended were not saved; a call whose result is not in the transcript is left out.
 */
import type { Message, ToolCallPart, ToolResult } from '../../providers/types.js';
import { answeredToolCalls } from '../../sessions/answered-tool-calls.js';
import type { ToolCallView } from './tool-call-line.js';
import type { LoggedToolCall } from './tool-call-log.js';

type SavedToolCall = Omit<LoggedToolCall, 'number'>;

export function savedToolCalls(history: readonly Message[]): SavedToolCall[] {
  return answeredToolCalls(history).map(({ call, result }) => savedCall(call, result));
}

/** The calls `callIds` names that the transcript answers, by id. */
export function savedToolCallsById(
  history: readonly Message[],
  callIds: readonly string[],
): Map<string, SavedToolCall> {
  const wanted = new Set(callIds);
  return new Map(
    answeredToolCalls(history)
      .filter(({ call }) => wanted.has(call.id))
      .map(({ call, result }) => [call.id, savedCall(call, result)]),
  );
}

function savedCall(call: ToolCallPart, result: ToolResult): SavedToolCall {
  return { view: viewOf(call.name, call.argumentsText), result };
}

/** The call as the model wrote it: its namespaced tool name, and its arguments parsed when they are a JSON object. */
function viewOf(tool: string, argumentsText: string): ToolCallView {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return { tool, arguments: parsed as Record<string, unknown> };
  } catch {
    // Not JSON: shown as written.
  }
  return { tool, argumentsText };
}
