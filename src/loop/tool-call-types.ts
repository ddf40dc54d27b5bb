/** The contract between the loop and whatever executes one tool call. */
import type { CallingClient, CallOrigin } from '../audit/audit-record.js';
import type { ServerExit } from '../connections/server-exit.js';
import type { SpilledText } from '../connections/spilled-text.js';
import type { ToolCallPart, ToolResult } from '../providers/types.js';
import type { AgentEvent, CallOutcome } from './events.js';

/** Progress a server reports for a running tool call. */
export interface ToolProgressUpdate {
  server: string;
  tool: string;
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolCallContext {
  runId: string;
  turn: number;
  /** How many calls the model made in this turn (budgets are shared among them). */
  callsInTurn: number;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** The downstream MCP client making the call through the gateway; recorded in the audit. */
  client?: CallingClient;
  /** `app`: an MCP App view asked for the call; recorded in the audit. */
  origin?: CallOrigin;
  /** Where this call's progress goes, instead of the host's `onProgress`. */
  onProgress?: (update: ToolProgressUpdate) => void;
}

export interface ExecutedToolCall {
  result: ToolResult;
  outcome: CallOutcome;
  server?: string;
  rawResult?: unknown;
  /**
   * The texts of `rawResult` too long to hold in memory: each is there as a stand-in (its two ends around a notice)
   * and kept whole in the result store under `id` (`host.readStoredText`).
   */
  spilledTexts?: readonly SpilledText[];
  /**
   * The output budget `result` was held to, in estimated tokens: the most of this result its caller is given, which
   * the gateway holds a result's `structuredContent` to as well.
   */
  maxResultTokens?: number;
  /**
   * For each part of `result.content`, the index in `rawResult.content` of the server's block it stands for, or
   * undefined for a part the host wrote; absent when the result is not a server's (an error, a host tool).
   */
  contentSources?: readonly (number | undefined)[];
  /**
   * The call failed because its server went away, and the host had already reported that exit (through its
   * `onDiagnostic`, when it has one) as it happened: the result's text says it again for the model, which sees no
   * report.
   */
  serverExit?: ServerExit;
}

/** Executes one call. Never throws: every failure becomes an error result for the model. */
export type ExecuteToolCall = (call: ToolCallPart, context: ToolCallContext) => Promise<ExecutedToolCall>;
