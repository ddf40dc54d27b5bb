import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { fromOpenAiResponsesResponse } from '../../../src/providers/openai-responses/from-openai-responses-response.js';
import { OpenAiResponsesStreamAccumulator } from '../../../src/providers/openai-responses/openai-responses-stream-accumulator.js';
import { ProviderError, type ToolCallDelta } from '../../../src/providers/types.js';

const usage = {
  input_tokens: 80,
  input_tokens_details: { cached_tokens: 64, cache_write_tokens: 16 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 89,
};

function response(fields: Partial<Response>): Response {
  return {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    output: [],
    error: null,
    incomplete_details: null,
    ...fields,
  } as Response;
}

let sequence = 0;
function event(type: string, fields: Record<string, unknown>): ResponseStreamEvent {
  return { type, sequence_number: sequence++, ...fields } as unknown as ResponseStreamEvent;
}

describe('OpenAiResponsesStreamAccumulator', () => {
  it('assembles text and calls from deltas and takes usage from response.completed', () => {
    const deltas: string[] = [];
    const pieces: ToolCallDelta[] = [];
    const accumulator = new OpenAiResponsesStreamAccumulator({
      onTextDelta: (text) => deltas.push(text),
      onToolCallDelta: (piece) => pieces.push(piece),
    });
    const events = [
      event('response.created', { response: response({ status: 'in_progress' }) }),
      event('response.output_item.added', {
        output_index: 0,
        item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] },
      }),
      event('response.output_text.delta', {
        output_index: 0,
        item_id: 'msg_1',
        content_index: 0,
        delta: 'Check',
        logprobs: [],
      }),
      event('response.output_text.delta', {
        output_index: 0,
        item_id: 'msg_1',
        content_index: 0,
        delta: 'ing.',
        logprobs: [],
      }),
      event('response.output_item.added', {
        output_index: 1,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_a', name: 'weather__get', arguments: '' },
      }),
      event('response.function_call_arguments.delta', { output_index: 1, item_id: 'fc_1', delta: '{"city":' }),
      event('response.function_call_arguments.delta', { output_index: 1, item_id: 'fc_1', delta: '"Oslo"}' }),
      // A completed event that does not list the output: the assembled items are used.
      event('response.completed', { response: response({ usage }) }),
    ];
    for (const item of events) accumulator.push(item);
    const result = accumulator.finish();
    expect(deltas).toEqual(['Check', 'ing.']);
    // The call is the answer's first call (the message item before it is not counted).
    expect(pieces).toEqual([
      { index: 0, name: 'weather__get', argumentsDelta: '{"city":' },
      { index: 0, name: 'weather__get', argumentsDelta: '"Oslo"}' },
    ]);
    expect(result.message.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call', id: 'call_a', name: 'weather__get', argumentsText: '{"city":"Oslo"}' },
    ]);
    expect(result.stopReason).toBe('tool-calls');
    expect(result.usage).toEqual({ inputTokens: 80, outputTokens: 9, cacheReadTokens: 64, cacheWriteTokens: 16 });
    expect(result.message.providerReplay?.provider).toBe('openai-responses');
  });

  it('fails on an error event, and on a stream that ends before response.completed', () => {
    const accumulator = new OpenAiResponsesStreamAccumulator();
    expect(() => accumulator.push(event('error', { code: 'server_error', message: 'boom', param: null }))).toThrow(
      ProviderError,
    );
    const cut = new OpenAiResponsesStreamAccumulator();
    cut.push(event('response.created', { response: response({ status: 'in_progress' }) }));
    expect(() => cut.finish()).toThrow(/ended before response.completed/);
  });
});

describe('fromOpenAiResponsesResponse', () => {
  it('detects calls by items, maps incomplete and refusals, and throws on a failed response', () => {
    const incomplete = response({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [],
    });
    expect(fromOpenAiResponsesResponse(incomplete).stopReason).toBe('max-tokens');
    const refusal = response({
      output: [
        {
          id: 'm',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'refusal', refusal: 'No.' }],
        },
      ],
    });
    expect(fromOpenAiResponsesResponse(refusal)).toMatchObject({
      stopReason: 'refusal',
      message: { content: [{ type: 'text', text: 'No.' }] },
    });
    const failed = response({ status: 'failed', error: { code: 'server_error', message: 'overloaded' } });
    expect(() => fromOpenAiResponsesResponse(failed)).toThrow(/server_error.*overloaded/);
  });
});
