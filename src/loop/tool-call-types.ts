/** The contract between the loop and whatever executes one tool call. */
import type { ToolCallPart, ToolResult } from '../providers/types.js';
import type { AgentEvent, CallOutcome } from './events.js';

export interface ToolCallContext {
  runId: string;
  turn: number;
  /** How many calls the model made in this turn (budgets are shared among them). */
  callsInTurn: number;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

export interface ExecutedToolCall {
  result: ToolResult;
  outcome: CallOutcome;
  server?: string;
  rawResult?: unknown;
}

/** Executes one call. Never throws: every failure becomes an error result for the model. */
export type ExecuteToolCall = (call: ToolCallPart, context: ToolCallContext) => Promise<ExecutedToolCall>;
