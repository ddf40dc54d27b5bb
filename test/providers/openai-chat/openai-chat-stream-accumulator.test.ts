import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { OpenAiChatStreamAccumulator } from '../../../src/providers/openai-chat/openai-chat-stream-accumulator.js';
import type { ModelResponse, ToolCallDelta } from '../../../src/providers/types.js';

type Delta = Record<string, unknown>;

function chunk(delta: Delta, finishReason: string | null = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  } as unknown as ChatCompletionChunk;
}

function accumulate(chunks: ChatCompletionChunk[]): {
  response: ModelResponse;
  deltas: string[];
  pieces: ToolCallDelta[];
} {
  const deltas: string[] = [];
  const pieces: ToolCallDelta[] = [];
  const accumulator = new OpenAiChatStreamAccumulator({
    onTextDelta: (text) => deltas.push(text),
    onToolCallDelta: (piece) => pieces.push(piece),
  });
  for (const item of chunks) accumulator.push(item);
  return { response: accumulator.finish(), deltas, pieces };
}

function calls(response: ModelResponse) {
  return response.message.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
}

describe('OpenAiChatStreamAccumulator', () => {
  it('joins calls split over many chunks by index, interleaved, after a text part', () => {
    const { response, deltas, pieces } = accumulate([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Let me ' }),
      chunk({ content: 'check.' }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather__get', arguments: '' } }],
      }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'clock__now', arguments: '{"zo' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: 'ne":"UTC"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(deltas).toEqual(['Let me ', 'check.']);
    // Each call's arguments as they streamed, numbered by call.
    expect(pieces).toEqual([
      { index: 1, name: 'clock__now', argumentsDelta: '{"zo' },
      { index: 0, name: 'weather__get', argumentsDelta: '{"city":' },
      { index: 1, name: 'clock__now', argumentsDelta: 'ne":"UTC"}' },
      { index: 0, name: 'weather__get', argumentsDelta: '"Oslo"}' },
    ]);
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', id: 'call_a', name: 'weather__get', argumentsText: '{"city":"Oslo"}' },
      { type: 'tool-call', id: 'call_b', name: 'clock__now', argumentsText: '{"zone":"UTC"}' },
    ]);
    expect(response.stopReason).toBe('tool-calls');
  });

  it('takes a call that arrives whole in one chunk, with no id and no type, and makes up a stable id', () => {
    const { response } = accumulate([
      chunk({ role: 'assistant' }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'weather__get', arguments: '{"city":"Oslo"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: 'weather__get', arguments: '{"city":"Rome"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const [first, second] = calls(response);
    expect(first?.argumentsText).toBe('{"city":"Oslo"}');
    expect(second?.argumentsText).toBe('{"city":"Rome"}');
    expect(first?.id).toMatch(/^call_[0-9a-f]{12}_0$/);
    expect(second?.id).toMatch(/^call_[0-9a-f]{12}_1$/);
  });

  it('makes up an id for a call whose id an earlier call of the answer already has', () => {
    const { response } = accumulate([
      chunk({ tool_calls: [{ index: 0, id: 'call_0', function: { name: 'weather__get', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_0', function: { name: 'weather__get', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const [first, second] = calls(response);
    expect(first?.id).toBe('call_0');
    expect(second?.id).toMatch(/^call_[0-9a-f]{12}_1$/);
  });

  it('does not trust finish_reason: calls present means tool-calls, and no finish reason at all means end', () => {
    const withCalls = accumulate([
      chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'x', arguments: '{}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(withCalls.response.stopReason).toBe('tool-calls');
    const noFinish = accumulate([chunk({ content: 'hello' })]);
    expect(noFinish.response).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      stopReason: 'end',
    });
  });

  it('reads usage from a chunk with choices: [] (and from a server that sends null choices)', () => {
    const usageChunk = {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55, prompt_tokens_details: { cached_tokens: 0 } },
    } as unknown as ChatCompletionChunk;
    const { response } = accumulate([chunk({ content: 'hi' }, 'stop'), usageChunk]);
    expect(response.usage).toEqual({ inputTokens: 50, outputTokens: 5, cacheReadTokens: 0 });
    const nullChoices = { ...usageChunk, choices: null } as unknown as ChatCompletionChunk;
    expect(accumulate([chunk({ content: 'hi' }, 'stop'), nullChoices]).response.usage?.inputTokens).toBe(50);
  });

  it('tells calls apart without an index (by id, or a new name) and when a server numbers every call 0', () => {
    const noIndex = accumulate([
      chunk({ tool_calls: [{ id: 'a', function: { name: 'one', arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ function: { name: 'two', arguments: '{}' } }] }),
    ]);
    expect(calls(noIndex.response).map((call) => [call.name, call.argumentsText])).toEqual([
      ['one', '{"x":1}'],
      ['two', '{}'],
    ]);
    const indexZero = accumulate([
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'one', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'two', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"y":2}' } }] }),
    ]);
    expect(calls(indexZero.response).map((call) => [call.id, call.name, call.argumentsText])).toEqual([
      ['a', 'one', '{}'],
      ['b', 'two', '{"y":2}'],
    ]);
  });

  it('takes arguments sent as an object and ignores a name repeated in every chunk', () => {
    const { response } = accumulate([
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'one', arguments: { x: 1 } } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'two', arguments: '{"y":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: 'two', arguments: '2}' } }] }),
    ]);
    expect(calls(response).map((call) => [call.name, call.argumentsText])).toEqual([
      ['one', '{"x":1}'],
      ['two', '{"y":2}'],
    ]);
  });
});
