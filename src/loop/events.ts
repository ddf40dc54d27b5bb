/**
 * What a run reports as it goes, in order. Interfaces (CLI, web, tests) render these; none of
 * them holds host logic. Names are noun-then-verb.
 */
import type { ServerExit } from '../connections/server-exit.js';
import type { AssistantMessage, StopReason, ToolResult, Usage } from '../providers/types.js';

export type CallOutcome = 'ok' | 'error' | 'timeout' | 'cancelled' | 'denied' | 'crashed' | 'invalid';

export type RunStopReason = 'end' | 'max-turns' | 'aborted' | 'max-tokens' | 'refusal' | 'other';

export type AgentEvent =
  | { type: 'turn-start'; turn: number }
  /** The exact body sent to the provider: translation #1 (tools) and #3 (tool results) live here. */
  | { type: 'provider-request'; turn: number; provider: string; body: unknown }
  | { type: 'text-delta'; text: string }
  | { type: 'model-response'; turn: number; message: AssistantMessage; stopReason: StopReason; usage?: Usage }
  /** A piece of a tool call's arguments while the model streams them; `index` counts the turn's calls from 0. */
  | { type: 'tool-call-delta'; turn: number; index: number; name: string; argumentsDelta: string }
  /**
   * `index` is the call's place among its answer's calls, from 0: a model may give two calls of one answer the same
   * id, and the events of a call say which of them it is by it.
   */
  | { type: 'tool-call-start'; turn: number; index: number; callId: string; name: string; argumentsText: string }
  /**
   * Translation #2: the `tools/call` about to be sent; `turn` (the model answer that made the call) and `index` as
   * above, both absent for a call no model made.
   */
  | {
      type: 'tool-call-request';
      callId: string;
      turn?: number;
      index?: number;
      server: string;
      tool: string;
      arguments: Record<string, unknown>;
    }
  | { type: 'tool-call-warning'; callId: string; turn?: number; index?: number; message: string }
  | {
      type: 'tool-call-end';
      turn: number;
      index: number;
      callId: string;
      name: string;
      server?: string;
      outcome: CallOutcome;
      result: ToolResult;
      /** The MCP result as the server sent it, when there was one. */
      rawResult?: unknown;
      /** The server went away during the call, as the host already reported (see `ExecutedToolCall`). */
      serverExit?: ServerExit;
      durationMs: number;
    }
  | { type: 'turn-end'; turn: number }
  | { type: 'run-end'; stopReason: RunStopReason; text: string; turns: number; usage: Usage; message?: string };
