import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { fromOpenAiChatResponse } from '../../../src/providers/openai-chat/from-openai-chat-response.js';
import { ProviderError } from '../../../src/providers/types.js';

function completion(message: Record<string, unknown>, finishReason: string | null, usage?: Record<string, unknown>) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', refusal: null, ...message },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    ...(usage && { usage }),
  } as unknown as ChatCompletion;
}

describe('fromOpenAiChatResponse', () => {
  it('maps text, calls and usage (cached tokens are part of the prompt)', () => {
    const response = fromOpenAiChatResponse(
      completion(
        {
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather__get', arguments: '{"city":"Oslo"}' } },
          ],
        },
        'tool_calls',
        { prompt_tokens: 120, completion_tokens: 7, total_tokens: 127, prompt_tokens_details: { cached_tokens: 100 } },
      ),
    );
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'call_1', name: 'weather__get', argumentsText: '{"city":"Oslo"}' },
        ],
      },
      stopReason: 'tool-calls',
      usage: { inputTokens: 120, outputTokens: 7, cacheReadTokens: 100 },
    });
  });

  it('tolerates local servers: no ids, no type, object arguments, finish_reason stop with calls', () => {
    const response = fromOpenAiChatResponse(
      completion(
        {
          content: null,
          tool_calls: [
            { function: { name: 'weather__get', arguments: { city: 'Oslo' } } },
            { function: { name: 'weather__get', arguments: '{"city":"Rome"}' } },
          ],
        },
        'stop',
      ),
    );
    expect(response.stopReason).toBe('tool-calls');
    const calls = response.message.content.filter((part) => part.type === 'tool-call');
    expect(calls.map((call) => call.argumentsText)).toEqual(['{"city":"Oslo"}', '{"city":"Rome"}']);
    const ids = calls.map((call) => call.id);
    expect(ids[0]).toMatch(/^call_[0-9a-f]{12}_0$/);
    expect(new Set(ids).size).toBe(2);
  });

  it('makes up an id for a call whose id an earlier call of the answer already has', () => {
    const response = fromOpenAiChatResponse(
      completion(
        {
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'weather__get', arguments: '{"city":"Oslo"}' } },
            { id: 'call_0', type: 'function', function: { name: 'weather__get', arguments: '{"city":"Rome"}' } },
          ],
        },
        'tool_calls',
      ),
    );
    const ids = response.message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
    expect(ids[0]).toBe('call_0');
    expect(ids[1]).toMatch(/^call_[0-9a-f]{12}_1$/);
  });

  it('maps the finish reasons it trusts, and a refusal', () => {
    expect(fromOpenAiChatResponse(completion({ content: 'done' }, 'stop')).stopReason).toBe('end');
    expect(fromOpenAiChatResponse(completion({ content: 'cut' }, 'length')).stopReason).toBe('max-tokens');
    expect(fromOpenAiChatResponse(completion({ content: '' }, 'content_filter')).stopReason).toBe('refusal');
    const refused = fromOpenAiChatResponse(completion({ content: null, refusal: 'I cannot help with that.' }, 'stop'));
    expect(refused.stopReason).toBe('refusal');
    expect(refused.message.content).toEqual([{ type: 'text', text: 'I cannot help with that.' }]);
  });

  it('fails clearly on an answer without choices', () => {
    const empty = { ...completion({}, 'stop'), choices: [] } as ChatCompletion;
    expect(() => fromOpenAiChatResponse(empty, 'ollama')).toThrow(ProviderError);
    expect(() => fromOpenAiChatResponse(empty, 'ollama')).toThrow(/ollama answered without any choice/);
  });
});
