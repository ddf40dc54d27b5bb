import { describe, expect, it } from 'vitest';
import {
  AnthropicStreamAccumulator,
  type AnthropicStreamEvent,
  readAnthropicStream,
} from '../../../src/providers/anthropic/anthropic-stream-accumulator.js';
import { ProviderError } from '../../../src/providers/types.js';

const start = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 30, cache_creation_input_tokens: 0 },
  },
} as unknown as AnthropicStreamEvent;

function events(list: unknown[]): AnthropicStreamEvent[] {
  return list as AnthropicStreamEvent[];
}

async function* asStream(list: AnthropicStreamEvent[]): AsyncGenerator<AnthropicStreamEvent> {
  for (const event of list) yield event;
}

const toolTurn = events([
  start,
  { type: 'ping' },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'check.' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather__get', input: {} },
  },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"ci' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ty": "Par' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_2', name: 'clock__now', input: {} },
  },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } },
  { type: 'message_stop' },
]);

describe('AnthropicStreamAccumulator', () => {
  it('builds text and tool calls, reports text deltas, skips ping, reads empty input as {}', async () => {
    const deltas: string[] = [];
    const response = await readAnthropicStream(asStream(toolTurn), (text) => deltas.push(text));
    expect(deltas).toEqual(['Let me ', 'check.']);
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', id: 'toolu_1', name: 'weather__get', argumentsText: '{"city": "Paris"}' },
          { type: 'tool-call', id: 'toolu_2', name: 'clock__now', argumentsText: '{}' },
        ],
      },
      stopReason: 'tool-calls',
      usage: { inputTokens: 42, outputTokens: 42, cacheReadTokens: 30, cacheWriteTokens: 0 },
    });
  });

  it('keeps invalid argument JSON exactly as the model sent it', () => {
    const accumulator = new AnthropicStreamAccumulator();
    for (const event of events([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'x', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a": ' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ])) {
      accumulator.add(event);
    }
    expect(accumulator.finished).toBe(true);
    const response = accumulator.result();
    expect(response.message.content).toEqual([{ type: 'tool-call', id: 't', name: 'x', argumentsText: '{"a": ' }]);
    expect(response.stopReason).toBe('max-tokens');
  });

  it('fails on an error event with a retryable ProviderError for overload', async () => {
    const failing = events([start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    const error = await readAnthropicStream(asStream(failing)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details).toMatchObject({ provider: 'anthropic', retryable: true });
    expect((error as ProviderError).message).toContain('overloaded_error');
    expect((error as ProviderError).message).toContain('Overloaded');
  });

  it('refuses a stream that ended before message_stop, or a delta for a block never started', async () => {
    const truncated = toolTurn.slice(0, 6);
    await expect(readAnthropicStream(asStream(truncated))).rejects.toThrow('ended before message_stop');
    await expect(readAnthropicStream(asStream([]))).rejects.toThrow('ended before message_start');
    const accumulator = new AnthropicStreamAccumulator();
    accumulator.add(start);
    expect(() =>
      accumulator.add({
        type: 'content_block_delta',
        index: 5,
        delta: { type: 'text_delta', text: 'x' },
      } as AnthropicStreamEvent),
    ).toThrow('content block 5');
  });
});
