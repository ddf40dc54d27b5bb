/**
 * OpenAI Responses `Response` → provider-neutral response. The API has no finish reason for tool
 * use: a turn calls tools when its output holds `function_call` items. The output items themselves
 * are kept in `providerReplay` so the next request can send them back exactly (the calls' arguments
 * as the model wrote them), while the calls' `argumentsText` is put into the shape their servers
 * declared when the request's tool shapes are given.
 */
import type { Response, ResponseOutputItem, ResponseUsage } from 'openai/resources/responses/responses';
import { type ToolArgumentShapes, withServerArguments } from '../openai-chat/openai-tool-arguments.js';
import { type AssistantPart, type ModelResponse, ProviderError, type StopReason, type Usage } from '../types.js';
import { responsesProviderId, toProviderReplay } from './openai-responses-replay.js';

/** The parts of a Response this mapping reads; a streamed response is rebuilt into this shape. */
type ResponsesResult = Pick<Response, 'output' | 'status' | 'incomplete_details' | 'error' | 'usage'>;

export function fromOpenAiResponsesResponse(response: ResponsesResult, toolShapes?: ToolArgumentShapes): ModelResponse {
  if (response.status === 'failed' || response.error) {
    const error = response.error;
    const retryable = error?.code === 'server_error' || error?.code === 'rate_limit_exceeded';
    throw new ProviderError(
      `${responsesProviderId}: the response failed${error ? ` (${error.code}): ${error.message}` : ''}.` +
        (retryable ? ' Trying again may work.' : ''),
      { provider: responsesProviderId, retryable },
    );
  }
  const content: AssistantPart[] = [];
  let refused = false;
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text' && part.text !== '') content.push({ type: 'text', text: part.text });
        if (part.type === 'refusal') {
          refused = true;
          if (part.refusal !== '') content.push({ type: 'text', text: part.refusal });
        }
      }
    } else if (item.type === 'function_call') {
      content.push({ type: 'tool-call', id: item.call_id, name: item.name, argumentsText: item.arguments ?? '' });
    }
  }
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  const result: ModelResponse = {
    message: {
      role: 'assistant',
      content: withServerArguments(content, toolShapes),
      providerReplay: toProviderReplay(replayable(response.output)),
    },
    stopReason: stopReasonOf(response, hasToolCalls, refused),
  };
  const usage = fromOpenAiResponsesUsage(response.usage);
  if (usage !== undefined) result.usage = usage;
  return result;
}

function stopReasonOf(response: ResponsesResult, hasToolCalls: boolean, refused: boolean): StopReason {
  if (hasToolCalls) return 'tool-calls';
  if (refused) return 'refusal';
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'max-tokens';
    if (reason === 'content_filter') return 'refusal';
    return 'other';
  }
  return 'end';
}

/** Items worth sending back: what the model said, thought and called, and what its tool search loaded. */
const replayedTypes: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'reasoning',
  'tool_search_call',
  'tool_search_output',
]);

/** A search loads a handful of tools; an output past this is not the provider's search answering. */
const maxLoadedTools = 100;

function replayable(output: ResponseOutputItem[]): ResponseOutputItem[] {
  for (const item of output) {
    if (item.type === 'tool_search_output' && (!Array.isArray(item.tools) || item.tools.length > maxLoadedTools)) {
      throw new ProviderError(
        `${responsesProviderId}: a tool_search_output item loads ${Array.isArray(item.tools) ? item.tools.length : 'no list of'} tools (at most ${maxLoadedTools} are kept); the answer is not used.`,
        { provider: responsesProviderId, retryable: false },
      );
    }
  }
  return output.filter((item) => replayedTypes.has(item.type));
}

/** `inputTokens` is the whole prompt; the cache counts are parts of it. */
function fromOpenAiResponsesUsage(usage: ResponseUsage | null | undefined): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const result: Usage = { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 };
  const details = usage.input_tokens_details;
  if (typeof details?.cached_tokens === 'number') result.cacheReadTokens = details.cached_tokens;
  if (typeof details?.cache_write_tokens === 'number') result.cacheWriteTokens = details.cache_write_tokens;
  return result;
}
