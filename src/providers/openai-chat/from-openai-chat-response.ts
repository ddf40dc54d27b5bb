/**
 * OpenAI Chat Completions response → provider-neutral response, tolerant of what local servers
 * send: calls without an id, or with one an earlier call of the answer has (one is made up),
 * arguments as an object instead of JSON text, and a `finish_reason` that does not say
 * `tool_calls` although the message calls tools. Given the request's tool shapes, the calls'
 * arguments are put into the shape their servers declared.
 */
import { randomUUID } from 'node:crypto';
import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { toolArgumentsText } from '../tool-arguments-text.js';
import { type AssistantPart, type ModelResponse, ProviderError, type Usage } from '../types.js';
import { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';
import { type ToolArgumentShapes, withServerArguments } from './openai-tool-arguments.js';

/** A call as some server sent it: every field may be missing, `arguments` may be an object. */
interface LooseToolCall {
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

/** Makes call ids for calls that came without one: unique per response, the same for a call's every chunk. */
function callIdMaker(): (index: number) => string {
  const prefix = randomUUID().replaceAll('-', '').slice(0, 12);
  return (index) => `call_${prefix}_${index}`;
}

/**
 * The id of a response's `index`-th call: the one the server sent, or one made up when it sent none or one an earlier
 * call of the response already has (the results of one turn are told apart by their calls' ids).
 */
export function callIdGiver(): (sent: string | undefined, index: number) => string {
  const makeId = callIdMaker();
  const given = new Set<string>();
  return (sent, index) => {
    const id = sent === undefined || given.has(sent) ? makeId(index) : sent;
    given.add(id);
    return id;
  };
}

export function fromOpenAiChatResponse(
  completion: ChatCompletion,
  provider = 'openai',
  toolShapes?: ToolArgumentShapes,
): ModelResponse {
  const choice = completion.choices?.[0];
  if (choice === undefined) {
    throw new ProviderError(`${provider} answered without any choice (an empty "choices" array).`, {
      provider,
      retryable: true,
    });
  }
  const message: ChatCompletionMessage = choice.message;
  const content: AssistantPart[] = [];
  if (typeof message.content === 'string' && message.content !== '')
    content.push({ type: 'text', text: message.content });
  if (typeof message.refusal === 'string' && message.refusal !== '')
    content.push({ type: 'text', text: message.refusal });
  const callId = callIdGiver();
  const calls = (message.tool_calls ?? []) as LooseToolCall[];
  for (const [index, call] of calls.entries()) {
    const name = call.function?.name ?? '';
    const argumentsText = argumentsAsText(call.function?.arguments);
    if (name === '' && argumentsText === '') continue;
    content.push({ type: 'tool-call', id: callId(nonEmpty(call.id), index), name, argumentsText });
  }
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  const refused = typeof message.refusal === 'string' && message.refusal !== '' && !hasToolCalls;
  const response: ModelResponse = {
    message: { role: 'assistant', content: withServerArguments(content, toolShapes) },
    stopReason: refused ? 'refusal' : mapOpenAiChatFinishReason(choice.finish_reason, hasToolCalls),
  };
  const usage = fromOpenAiChatUsage(completion.usage);
  if (usage !== undefined) response.usage = usage;
  return response;
}

/**
 * Arguments as JSON text. OpenAI sends a string; some local servers send the parsed object, which
 * is serialised back so the host parses one format.
 */
export function argumentsAsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return toolArgumentsText(value);
}

/** `inputTokens` is the whole prompt as OpenAI counts it; the cache counts are parts of it. */
export function fromOpenAiChatUsage(usage: CompletionUsage | null | undefined): Usage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const result: Usage = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  const details = usage.prompt_tokens_details;
  if (typeof details?.cached_tokens === 'number') result.cacheReadTokens = details.cached_tokens;
  if (typeof details?.cache_write_tokens === 'number') result.cacheWriteTokens = details.cache_write_tokens;
  return result;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
