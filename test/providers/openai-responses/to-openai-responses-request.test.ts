import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { toProviderReplay } from '../../../src/providers/openai-responses/openai-responses-replay.js';
import { toOpenAiResponsesRequest } from '../../../src/providers/openai-responses/to-openai-responses-request.js';
import type { AssistantMessage, ModelRequest } from '../../../src/providers/types.js';
import { png, tools } from '../openai-chat/openai-conversation-fixture.js';

const assistantTurn: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Checking.' },
    { type: 'tool-call', id: 'call_a', name: 'weather__get', argumentsText: '{"city":"Oslo"}' },
    { type: 'tool-call', id: 'call_b', name: 'camera__snap', argumentsText: '' },
  ],
};

function conversation(assistant: AssistantMessage = assistantTurn): ModelRequest {
  return {
    system: 'Be brief.',
    tools,
    maxOutputTokens: 500,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather and a picture?' }] },
      assistant,
      {
        role: 'tool',
        results: [
          {
            callId: 'call_a',
            toolName: 'weather__get',
            content: [{ type: 'text', text: 'no such city' }],
            isError: true,
          },
          {
            callId: 'call_b',
            toolName: 'camera__snap',
            content: [
              { type: 'text', text: 'snapped' },
              { type: 'image', data: png, mimeType: 'image/png' },
            ],
            isError: false,
          },
        ],
      },
    ],
  };
}

describe('toOpenAiResponsesRequest', () => {
  it('builds a stateless request: instructions, sorted tools with strict always set, one output per call', () => {
    const body = toOpenAiResponsesRequest(conversation(), { model: 'gpt-4.1' });
    expect(body.store).toBe(false);
    expect(body.instructions).toBe('Be brief.');
    expect(body.max_output_tokens).toBe(500);
    expect(body.include).toBeUndefined();
    // Strict mode is opt-in; `strict: false` is still said, as the API's type requires.
    expect(body.tools?.map((tool) => (tool.type === 'function' ? [tool.name, tool.strict] : []))).toEqual([
      ['camera__snap', false],
      ['clock__now', false],
      ['weather__get', false],
    ]);
    const strict = toOpenAiResponsesRequest(conversation(), { model: 'gpt-4.1', strictTools: true });
    expect(strict.tools?.map((tool) => (tool.type === 'function' ? [tool.name, tool.strict] : []))).toEqual([
      ['camera__snap', false],
      ['clock__now', true],
      ['weather__get', true],
    ]);
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather and a picture?' }] },
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_a', name: 'weather__get', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_b', name: 'camera__snap', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_a', output: 'Error: no such city' },
      {
        type: 'function_call_output',
        call_id: 'call_b',
        output: [
          { type: 'input_text', text: 'snapped' },
          { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
        ],
      },
    ]);
  });

  it('asks reasoning models for encrypted reasoning, unless the caller chose `include` itself', () => {
    expect(toOpenAiResponsesRequest(conversation(), { model: 'gpt-5-mini' }).include).toEqual([
      'reasoning.encrypted_content',
    ]);
    expect(toOpenAiResponsesRequest(conversation(), { model: 'o4-mini' }).include).toEqual([
      'reasoning.encrypted_content',
    ]);
    const chosen = toOpenAiResponsesRequest(
      { ...conversation(), providerOptions: { 'openai-responses': { include: [], store: true } } },
      { model: 'gpt-5' },
    );
    expect(chosen.include).toEqual([]);
    expect(chosen.store).toBe(false);
  });

  const message: ResponseOutputItem = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
  };
  const callA: ResponseOutputItem = {
    id: 'fc_1',
    type: 'function_call',
    call_id: 'call_a',
    name: 'weather__get',
    arguments: '{"city":"Oslo"}',
    status: 'completed',
  };
  const callB: ResponseOutputItem = {
    id: 'fc_2',
    type: 'function_call',
    call_id: 'call_b',
    name: 'camera__snap',
    arguments: '',
    status: 'completed',
  };

  it('replays the model items exactly, ids included, when their encrypted reasoning goes along', () => {
    const reasoning: ResponseOutputItem = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'opaque' };
    const replayed = { ...assistantTurn, providerReplay: toProviderReplay([reasoning, message, callA, callB]) };
    const input = toOpenAiResponsesRequest(conversation(replayed), { model: 'gpt-5' }).input as unknown[];
    expect(input.slice(1, 5)).toEqual([reasoning, message, callA, callB]);
  });

  it('drops item ids (and reasoning without encrypted content) when the reasoning cannot go along', () => {
    const reasoning: ResponseOutputItem = { id: 'rs_1', type: 'reasoning', summary: [] };
    const replayed = { ...assistantTurn, providerReplay: toProviderReplay([reasoning, message, callA, callB]) };
    const input = toOpenAiResponsesRequest(conversation(replayed), { model: 'gpt-5' }).input as unknown[];
    expect(input.slice(1, 4)).toEqual([
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_a', name: 'weather__get', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_b', name: 'camera__snap', arguments: '' },
    ]);
  });

  it('ignores replay data whose calls no longer match the message, and answers calls left without a result', () => {
    const stale = { ...assistantTurn, providerReplay: toProviderReplay([message, callA]) };
    const request = conversation(stale);
    request.messages.pop();
    const input = toOpenAiResponsesRequest(request, { model: 'gpt-4.1' }).input as {
      type?: string;
      call_id?: string;
      output?: string;
    }[];
    expect(input.map((item) => [item.type, item.call_id])).toEqual([
      ['message', undefined],
      ['message', undefined],
      ['function_call', 'call_a'],
      ['function_call', 'call_b'],
      ['function_call_output', 'call_a'],
      ['function_call_output', 'call_b'],
    ]);
    expect(input.at(-1)?.output).toMatch(/^Error: no result was recorded/);
  });
});
