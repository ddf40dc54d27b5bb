/**
 * The seam between the host and any language model.
 *
 * Everything above this file speaks these provider-neutral types; each adapter under
 * `src/providers/<name>/` translates them to its vendor's wire format and back. Vendor-only
 * details that must survive a round trip (Gemini thought signatures, Responses item ids) travel
 * in `providerReplay`, which only the adapter that wrote it reads.
 */

import type { ImagePart, TextPart, ToolDefinition, ToolResultPart } from '../content/content-parts.js';

export type { ImagePart, TextPart, ToolDefinition, ToolResultPart } from '../content/content-parts.js';

export interface ToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  /** The arguments exactly as the model produced them: JSON text, possibly invalid. */
  argumentsText: string;
}

export type UserPart = TextPart | ImagePart;
export type AssistantPart = TextPart | ToolCallPart;

export interface ToolResult {
  callId: string;
  toolName: string;
  content: ToolResultPart[];
  isError: boolean;
}

export interface UserMessage {
  role: 'user';
  content: UserPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
  /** Opaque data an adapter needs to replay this message exactly (e.g. Gemini `Content`). */
  providerReplay?: { provider: string; data: unknown };
}

/** All results of one turn, in call order. Adapters group or split them as their provider requires. */
export interface ToolResultsMessage {
  role: 'tool';
  results: ToolResult[];
}

export type Message = UserMessage | AssistantMessage | ToolResultsMessage;

/**
 * Why the model stopped. `paused`: the provider paused a long turn of its own server-side tools (Anthropic's
 * `pause_turn`); the turn goes on when the conversation is sent back with the paused answer as it came.
 */
export type StopReason = 'end' | 'tool-calls' | 'max-tokens' | 'refusal' | 'paused' | 'other';

export interface Usage {
  /** All input tokens of the request, cached ones included (as OpenAI and Gemini count them). */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache. */
  cacheWriteTokens?: number;
}

export interface ModelRequest {
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxOutputTokens?: number;
  /** Vendor-only options, read only by the matching adapter. */
  providerOptions?: Record<string, unknown>;
}

export interface ModelResponse {
  message: AssistantMessage;
  stopReason: StopReason;
  usage?: Usage;
}

/** A fragment of a streamed tool call's arguments. */
export interface ToolCallDelta {
  /** Which tool call of the answer, counted from 0 in the order they started. */
  index: number;
  name: string;
  /** The next piece of the arguments' JSON text (appended to the pieces before it). */
  argumentsDelta: string;
}

export interface GenerateOptions {
  signal?: AbortSignal;
  /** Stream the answer: text deltas are reported as they arrive. */
  stream?: boolean;
  onTextDelta?: (text: string) => void;
  /**
   * A piece of a tool call's arguments as the model streams them (before the call is complete). Providers that send
   * calls whole never call it.
   */
  onToolCallDelta?: (delta: ToolCallDelta) => void;
  /** Called with the exact request body sent to the provider (for `--trace` and tests). */
  onProviderRequest?: (body: unknown) => void;
}

export interface LlmProvider {
  /** The provider id, as in `provider:model` (e.g. `anthropic`). */
  readonly provider: string;
  readonly model: string;
  /**
   * The provider searches deferred tools itself (a server-side tool search over definitions sent with
   * `deferLoading`), for this model. When true, a large catalog is sent deferred instead of as the host's
   * discovery meta-tools. Absent means no.
   */
  readonly nativeToolSearch?: boolean;
  generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse>;
}

/** An error from a model provider, with what failed and whether trying again may help. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly details: { provider: string; status?: number; retryable?: boolean; cause?: unknown } = { provider: '' },
  ) {
    super(message, { cause: details.cause });
  }
}
