/**
 * Builds a ModelResponse from the raw events of `client.messages.create({ stream: true })`, and
 * reports text as it arrives. Our own, rather than the SDK's `.stream()` helper, so the rules are
 * ours and visible: `ping` skipped wherever it comes, an `error` event fails the turn, an empty
 * tool input (`partial_json: ''`) means `{}`, tool arguments are kept exactly as sent (possibly
 * invalid JSON: the loop reports that to the model) except that a wrapped root is unwrapped, and
 * a stream that ends before
 * `message_stop` is an error, never a silently truncated answer.
 */
import { APIError } from '@anthropic-ai/sdk';
import type {
  RawMessageStreamEvent,
  ServerToolUseBlock,
  ToolSearchToolResultBlock,
} from '@anthropic-ai/sdk/resources/messages';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';
import { textExceedsJsonDepth } from '../../json/json-depth.js';
import { toolArgumentsText } from '../tool-arguments-text.js';
import {
  type AssistantMessage,
  type AssistantPart,
  type ModelResponse,
  ProviderError,
  type StopReason,
  type ToolCallDelta,
  type Usage,
} from '../types.js';
import { type AnthropicAnswerBlock, toAnthropicReplay } from './anthropic-replay.js';
import { type AnthropicResponseContext, inputForServer } from './from-anthropic-response.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { type AnthropicUsageFields, mapAnthropicUsage } from './map-anthropic-usage.js';

export type AnthropicStreamEvent =
  | RawMessageStreamEvent
  | { type: 'ping' }
  | { type: 'error'; error?: { type?: string; message?: string } };

type BlockState =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; id: string; name: string; json: string; startInput: unknown; ordinal: number }
  | { kind: 'server-tool'; id: string; name: ServerToolUseBlock['name']; json: string; startInput: unknown }
  | { kind: 'search-result'; block: ToolSearchToolResultBlock }
  | { kind: 'other' };

export class AnthropicStreamAccumulator {
  readonly #blocks = new Map<number, BlockState>();
  #started = false;
  #stopped = false;
  #stopReason: StopReason = 'other';
  #usage: AnthropicUsageFields = {};
  #toolCalls = 0;

  constructor(
    private readonly onTextDelta?: (text: string) => void,
    private readonly context?: AnthropicResponseContext,
    private readonly onToolCallDelta?: (delta: ToolCallDelta) => void,
  ) {}

  /** True once `message_stop` has arrived. */
  get finished(): boolean {
    return this.#stopped;
  }

  add(event: AnthropicStreamEvent): void {
    switch (event.type) {
      case 'ping':
        return;
      case 'error': {
        // The same error the SDK raises for an `error` frame, so both paths share one mapping.
        const type = (event.error?.type ?? null) as ErrorType | null;
        throw mapAnthropicError(new APIError(undefined, event, undefined, undefined, type));
      }
      case 'message_start':
        this.#started = true;
        this.#usage = { ...event.message.usage };
        return;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') this.#blocks.set(event.index, { kind: 'text', text: block.text });
        else if (block.type === 'tool_use') {
          this.#blocks.set(event.index, {
            kind: 'tool',
            id: block.id,
            name: block.name,
            json: '',
            startInput: block.input,
            ordinal: this.#toolCalls++,
          });
        } else if (block.type === 'server_tool_use') {
          // Run by the provider (its tool search): kept to be sent back, never a call for the host to run.
          this.#blocks.set(event.index, {
            kind: 'server-tool',
            id: block.id,
            name: block.name,
            json: '',
            startInput: block.input,
          });
        } else if (block.type === 'tool_search_tool_result') {
          this.#blocks.set(event.index, { kind: 'search-result', block: structuredClone(block) });
        } else this.#blocks.set(event.index, { kind: 'other' });
        return;
      }
      case 'content_block_delta': {
        const block = this.#blocks.get(event.index);
        if (!block) throw outOfOrder(`a delta for content block ${event.index}, which was never started`);
        if (event.delta.type === 'text_delta' && block.kind === 'text') {
          block.text += event.delta.text;
          if (event.delta.text !== '') this.onTextDelta?.(event.delta.text);
        } else if (event.delta.type === 'input_json_delta' && block.kind === 'tool') {
          block.json += event.delta.partial_json;
          // A wrapped tool's pieces are of the wrapper, not of what its server takes: those are not reported.
          if (event.delta.partial_json !== '' && !this.context?.wrappedTools.has(block.name)) {
            this.onToolCallDelta?.({
              index: block.ordinal,
              name: block.name,
              argumentsDelta: event.delta.partial_json,
            });
          }
        } else if (event.delta.type === 'input_json_delta' && block.kind === 'server-tool') {
          block.json += event.delta.partial_json;
        }
        return;
      }
      case 'content_block_stop':
        return;
      case 'message_delta': {
        this.#stopReason = mapAnthropicStopReason(event.delta.stop_reason);
        const usage = event.usage;
        this.#usage = {
          ...this.#usage,
          output_tokens: usage.output_tokens,
          ...(usage.input_tokens != null && { input_tokens: usage.input_tokens }),
          ...(usage.cache_read_input_tokens != null && { cache_read_input_tokens: usage.cache_read_input_tokens }),
          ...(usage.cache_creation_input_tokens != null && {
            cache_creation_input_tokens: usage.cache_creation_input_tokens,
          }),
        };
        return;
      }
      case 'message_stop':
        this.#stopped = true;
        return;
    }
  }

  /** The complete answer. Throws a retryable ProviderError when the stream did not finish. */
  result(): ModelResponse {
    if (!this.#started || !this.#stopped) {
      throw new ProviderError(
        `The Anthropic stream ended before ${this.#started ? 'message_stop' : 'message_start'}: the answer is incomplete. Try again.`,
        { provider: 'anthropic', retryable: true },
      );
    }
    const content: AssistantPart[] = [];
    for (const index of [...this.#blocks.keys()].sort((a, b) => a - b)) {
      const block = this.#blocks.get(index);
      if (block?.kind === 'text' && block.text !== '') content.push({ type: 'text', text: block.text });
      if (block?.kind === 'tool') {
        const text = argumentsText(block);
        content.push({ type: 'tool-call', id: block.id, name: block.name, argumentsText: this.forServer(block, text) });
      }
    }
    const usage: Usage = mapAnthropicUsage(this.#usage);
    const message: AssistantMessage = { role: 'assistant', content };
    const providerReplay = toAnthropicReplay(this.answerBlocks());
    if (providerReplay !== undefined) message.providerReplay = providerReplay;
    return { message, stopReason: this.#stopReason, usage };
  }

  /** The answer's blocks in order, inputs as the model wrote them: what a replay sends back. */
  private answerBlocks(): AnthropicAnswerBlock[] {
    const blocks: AnthropicAnswerBlock[] = [];
    for (const index of [...this.#blocks.keys()].sort((a, b) => a - b)) {
      const block = this.#blocks.get(index);
      if (block?.kind === 'text') blocks.push({ type: 'text', text: block.text });
      else if (block?.kind === 'tool') {
        blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: parsedInput(argumentsText(block)) });
      } else if (block?.kind === 'server-tool') {
        blocks.push({
          type: 'server_tool_use',
          id: block.id,
          name: block.name,
          input: parsedInput(argumentsText(block)),
        });
      } else if (block?.kind === 'search-result') blocks.push(block.block);
    }
    return blocks;
  }

  /** Unwraps a wrapped tool's input; text that does not parse is kept as sent. */
  private forServer(block: { name: string }, text: string): string {
    // Text nested too deep is kept as sent: the loop refuses it, where re-writing it would overflow the stack.
    if (!this.context?.wrappedTools.has(block.name) || textExceedsJsonDepth(text)) return text;
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch {
      return text;
    }
    return toolArgumentsText(inputForServer(block.name, input, this.context));
  }
}

/** Feeds every event of a stream to an accumulator and returns the answer. */
export async function readAnthropicStream(
  events: AsyncIterable<AnthropicStreamEvent>,
  onTextDelta?: (text: string) => void,
  context?: AnthropicResponseContext,
  onToolCallDelta?: (delta: ToolCallDelta) => void,
): Promise<ModelResponse> {
  const accumulator = new AnthropicStreamAccumulator(onTextDelta, context, onToolCallDelta);
  for await (const event of events) accumulator.add(event);
  return accumulator.result();
}

function argumentsText(block: { json: string; startInput: unknown }): string {
  if (block.json !== '') return block.json;
  // No fragments: the input was empty, or (from some proxies) sent whole in content_block_start.
  const start = block.startInput;
  return start !== null && typeof start === 'object' && Object.keys(start).length > 0 ? toolArgumentsText(start) : '{}';
}

/** The input as an object for a replayed block; text that does not parse (the loop reports it) replays as `{}`. */
function parsedInput(text: string): unknown {
  if (textExceedsJsonDepth(text)) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function outOfOrder(what: string): ProviderError {
  return new ProviderError(`The Anthropic stream is out of order: ${what}.`, {
    provider: 'anthropic',
    retryable: true,
  });
}
