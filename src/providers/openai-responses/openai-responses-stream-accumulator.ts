/**
 * Builds a neutral response from the raw events of a streamed Responses call
 * (`responses.create({ stream: true })`), reporting text as it arrives. Items are assembled from
 * `output_item.added`, argument and text deltas and `output_item.done`; the final `response.completed`
 * (or `.incomplete`) brings usage and, when it lists them, the authoritative items.
 */
import type {
  Response,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import type { ToolArgumentShapes } from '../openai-chat/openai-tool-arguments.js';
import { type ModelResponse, ProviderError, type ToolCallDelta } from '../types.js';
import { fromOpenAiResponsesResponse } from './from-openai-responses-response.js';
import { responsesProviderId } from './openai-responses-replay.js';

interface OpenAiResponsesStreamAccumulatorOptions {
  onTextDelta?: (text: string) => void;
  onToolCallDelta?: (delta: ToolCallDelta) => void;
  /** The request's tool shapes: calls' arguments are put into the shape their servers declared. */
  toolShapes?: ToolArgumentShapes;
}

export class OpenAiResponsesStreamAccumulator {
  private readonly items: (ResponseOutputItem | undefined)[] = [];
  private final: Response | undefined;

  constructor(private readonly options: OpenAiResponsesStreamAccumulatorOptions = {}) {}

  push(event: ResponseStreamEvent): void {
    switch (event.type) {
      case 'response.output_item.added':
      case 'response.output_item.done':
        this.items[event.output_index] = structuredClone(event.item);
        break;
      case 'response.output_text.delta':
        this.options.onTextDelta?.(event.delta);
        this.appendToMessage(event.output_index, event.item_id, event.content_index, 'output_text', event.delta);
        break;
      case 'response.refusal.delta':
        this.options.onTextDelta?.(event.delta);
        this.appendToMessage(event.output_index, event.item_id, event.content_index, 'refusal', event.delta);
        break;
      case 'response.function_call_arguments.delta': {
        const item = this.items[event.output_index];
        if (item?.type === 'function_call') {
          item.arguments = (item.arguments ?? '') + event.delta;
          if (event.delta !== '') {
            // Calls are counted among the answer's items that are calls, in order.
            const index = this.items.slice(0, event.output_index).filter((other) => other?.type === 'function_call');
            this.options.onToolCallDelta?.({ index: index.length, name: item.name, argumentsDelta: event.delta });
          }
        }
        break;
      }
      case 'response.function_call_arguments.done': {
        const item = this.items[event.output_index];
        if (item?.type === 'function_call') item.arguments = event.arguments;
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.final = event.response;
        break;
      case 'error':
        throw new ProviderError(
          `${responsesProviderId}: the stream reported an error (${event.code}): ${event.message}`,
          {
            provider: responsesProviderId,
            retryable: event.code === 'server_error' || event.code === 'rate_limit_exceeded',
          },
        );
      default:
        // Created / in-progress markers, content-part boundaries, reasoning summaries: nothing to keep.
        break;
    }
  }

  finish(): ModelResponse {
    const final = this.final;
    if (final === undefined) {
      throw new ProviderError(
        `${responsesProviderId}: the stream ended before response.completed; the answer may be cut off. Try again.`,
        { provider: responsesProviderId, retryable: true },
      );
    }
    const assembled = this.items.filter((item): item is ResponseOutputItem => item !== undefined);
    return fromOpenAiResponsesResponse(
      {
        output: final.output.length > 0 ? final.output : assembled,
        status: final.status,
        incomplete_details: final.incomplete_details,
        error: final.error,
        usage: final.usage,
      },
      this.options.toolShapes,
    );
  }

  private appendToMessage(
    outputIndex: number,
    itemId: string,
    contentIndex: number,
    type: 'output_text' | 'refusal',
    delta: string,
  ): void {
    let item = this.items[outputIndex];
    if (item === undefined) {
      const opened: ResponseOutputMessage = {
        id: itemId,
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        content: [],
      };
      item = opened;
      this.items[outputIndex] = item;
    }
    if (item.type !== 'message') return;
    const part = item.content[contentIndex];
    if (part === undefined) {
      item.content[contentIndex] =
        type === 'output_text' ? { type, text: delta, annotations: [] } : { type, refusal: delta };
    } else if (part.type === 'output_text' && type === 'output_text') part.text += delta;
    else if (part.type === 'refusal' && type === 'refusal') part.refusal += delta;
  }
}
