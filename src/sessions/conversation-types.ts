/** The conversation API: a multi-turn exchange with the model, saved as it goes and resumable with any provider. */
import type { AgentEvent } from '../loop/events.js';
import type { RunResult } from '../loop/run-agent.js';
import type { LlmProvider, Message, UserPart } from '../providers/types.js';

export interface ConversationOptions {
  /** Resume this saved session (an error naming the id if there is none). */
  sessionId?: string;
  /** Resume the newest session saved for this config (a new one if there is none). */
  continueLast?: boolean;
  /**
   * Hears what the conversation has to say of its session, as the host's `onDiagnostic` does too: lines of a resumed
   * file that were skipped, a session passed over by `continueLast`, a save that failed.
   */
  onDiagnostic?: (message: string) => void;
}

export interface ConversationUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface Conversation {
  /** The session id (also the saved file's name). */
  readonly id: string;
  /** The neutral transcript. */
  readonly history: readonly Message[];
  /**
   * The answered tool calls that compactions replaced with a summary, in this session (resumed ones included): a chat
   * numbers the calls of `history` after them, so a call keeps the number it was shown with before the compaction.
   */
  readonly compactedToolCalls: number;
  /** One user turn; yields the same events as `host.stream()`. */
  send(text: string, options?: { images?: UserPart[]; signal?: AbortSignal }): AsyncIterable<AgentEvent>;
  /** Cancels the turn in flight; the transcript keeps its completed messages. Resolves once the turn has stopped. */
  cancel(): Promise<void>;
  /** Totals for this conversation so far. */
  usage(): ConversationUsage;
  /** The model in use, as `provider:model`. */
  model(): string;
  /** Switches provider/model; the next turn uses it (the neutral transcript is translated by its adapter). */
  setModel(spec: string): Promise<void>;
  /**
   * Summarises older turns with the model, keeping the system prompt, tools and last turns byte-stable. `compacted`
   * is false when no turn is older than those kept: a summary may cost what the turns it replaced did.
   */
  compact(): Promise<{ compacted: boolean; beforeTokens: number; afterTokens: number }>;
  /** Forgets the transcript; a new session id starts. */
  clear(): void;
  /** Waits until everything is on disk (saving also happens after every message). */
  save(): Promise<void>;
  /**
   * Cancels the turn in flight and lets the session go, so another process may resume it (closing the host does the
   * same for all its conversations). The conversation is not to be used after.
   */
  close(): Promise<void>;
}

/** What a conversation needs from the host to run a turn: the host's own run, so every duty is the same one. */
interface TurnRunnerOptions {
  history: Message[];
  images?: UserPart[];
  provider: LlmProvider;
  signal: AbortSignal;
  onEvent: (event: AgentEvent) => void;
  onMessage: (message: Message) => void;
}

export type TurnRunner = (text: string, options: TurnRunnerOptions) => Promise<RunResult>;
