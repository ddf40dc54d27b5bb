import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { fromAnthropicResponse } from '../../../src/providers/anthropic/from-anthropic-response.js';
import { mapAnthropicStopReason } from '../../../src/providers/anthropic/map-anthropic-stop-reason.js';

function message(overrides: Partial<Message>): Message {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [],
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
      cache_creation: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: null,
      speed: null,
    },
    ...overrides,
  } as Message;
}

describe('fromAnthropicResponse', () => {
  it('maps text and tool_use blocks, stop reason and usage with cache tokens', () => {
    const response = fromAnthropicResponse(
      message({
        stop_reason: 'tool_use',
        content: [
          { type: 'text', text: 'Checking.', citations: null },
          { type: 'tool_use', id: 'toolu_1', name: 'weather__get', input: { city: 'Paris', days: 2 } },
        ] as Message['content'],
      }),
    );
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'toolu_1', name: 'weather__get', argumentsText: '{"city":"Paris","days":2}' },
        ],
      },
      stopReason: 'tool-calls',
      usage: { inputTokens: 130, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 20 },
    });
  });

  it('leaves out block types the host does not use', () => {
    const response = fromAnthropicResponse(
      message({ content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }] as unknown as Message['content'] }),
    );
    expect(response.message.content).toEqual([]);
    expect(response.stopReason).toBe('end');
  });
});

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'end'],
    ['stop_sequence', 'end'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'max-tokens'],
    ['model_context_window_exceeded', 'max-tokens'],
    ['refusal', 'refusal'],
    ['pause_turn', 'paused'],
    [null, 'other'],
    ['something_new', 'other'],
  ])('%s → %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });
});
