import { describe, expect, it } from 'vitest';
import { missingResultText, toOpenAiChatRequest } from '../../../src/providers/openai-chat/to-openai-chat-request.js';
import type { ModelRequest, ToolDefinition } from '../../../src/providers/types.js';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const tools: ToolDefinition[] = [
  {
    name: 'weather__get',
    description: 'Weather for a city',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
    },
  },
  {
    name: 'clock__now',
    description: 'The time',
    inputSchema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
  },
  { name: 'camera__snap', description: '', inputSchema: {} },
];

function conversation(): ModelRequest {
  return {
    system: 'Be brief.',
    tools,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather and a picture?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'call_a', name: 'weather__get', argumentsText: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_b', name: 'camera__snap', argumentsText: '' },
          { type: 'tool-call', id: 'call_c', name: 'clock__now', argumentsText: '{"zone":"UTC"}' },
        ],
      },
      {
        role: 'tool',
        results: [
          {
            callId: 'call_a',
            toolName: 'weather__get',
            content: [{ type: 'text', text: 'city not found' }],
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

describe('toOpenAiChatRequest', () => {
  it('offers tools sorted by name, as normalised and without a strict flag unless strict mode is asked for', () => {
    const body = toOpenAiChatRequest(conversation(), { model: 'gpt-test', local: false });
    expect(body.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : ''))).toEqual([
      'camera__snap',
      'clock__now',
      'weather__get',
    ]);
    const [camera, , weather] = (body.tools ?? []).map((tool) =>
      tool.type === 'function' ? tool.function : undefined,
    );
    // No parameters at all: an object with (empty) properties, or OpenAI answers 400.
    expect(camera).toEqual({ name: 'camera__snap', parameters: { type: 'object', properties: {} } });
    // `days` stays optional: nothing is added that the model would have to fill in.
    expect(weather).toEqual({
      name: 'weather__get',
      description: 'Weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city'],
      },
    });
  });

  it('offers tools strict where the SDK can make the schema strict, when strict mode is asked for', () => {
    const body = toOpenAiChatRequest(conversation(), { model: 'gpt-test', local: false, strictTools: true });
    expect(body.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : ''))).toEqual([
      'camera__snap',
      'clock__now',
      'weather__get',
    ]);
    const [camera, clock, weather] = (body.tools ?? []).map((tool) =>
      tool.type === 'function' ? tool.function : undefined,
    );
    // No parameters at all: an object with properties, closed, strict.
    expect(camera).toEqual({
      name: 'camera__snap',
      parameters: { type: 'object', properties: {}, additionalProperties: false, required: [] },
      strict: true,
    });
    expect(clock?.strict).toBe(true);
    expect(clock?.parameters).toMatchObject({ additionalProperties: false, required: ['zone'] });
    // `days` is optional: strict spells it required but nullable (the null is removed before the call).
    expect(weather).toEqual({
      name: 'weather__get',
      description: 'Weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } },
        required: ['city', 'days'],
        additionalProperties: false,
      },
      strict: true,
    });
  });

  it('sends no strict flag to a local server, and max_tokens instead of max_completion_tokens', () => {
    const local = toOpenAiChatRequest(
      { ...conversation(), maxOutputTokens: 100 },
      { model: 'qwen', local: true, strictTools: true },
    );
    for (const tool of local.tools ?? []) expect(tool.type === 'function' && 'strict' in tool.function).toBe(false);
    expect(local.max_tokens).toBe(100);
    expect(local.max_completion_tokens).toBeUndefined();
    const remote = toOpenAiChatRequest({ ...conversation(), maxOutputTokens: 100 }, { model: 'gpt', local: false });
    expect(remote.max_completion_tokens).toBe(100);
    expect(remote.max_tokens).toBeUndefined();
  });

  it('replays the calls, answers every call id, says errors in the text and moves images to a user message', () => {
    const body = toOpenAiChatRequest(conversation(), { model: 'gpt-test', local: false });
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather and a picture?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'weather__get', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'camera__snap', arguments: '{}' } },
          { id: 'call_c', type: 'function', function: { name: 'clock__now', arguments: '{"zone":"UTC"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'Error: city not found' },
      { role: 'tool', tool_call_id: 'call_b', content: 'snapped\n[image returned; see the next message]' },
      // The history had no result for call_c: answered anyway, or OpenAI rejects the request.
      { role: 'tool', tool_call_id: 'call_c', content: missingResultText },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The tool call call_b (camera__snap) returned an image:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        ],
      },
    ]);
    // The image travels only as a data URL in an image part, never as text.
    const texts = JSON.stringify(
      body.messages.map((message) => (typeof message.content === 'string' ? message.content : '')),
    );
    expect(texts).not.toContain(png);
  });

  it('answers calls left without any tool message before the next user message', () => {
    const request = conversation();
    request.messages.splice(2, 1, { role: 'user', content: [{ type: 'text', text: 'never mind' }] });
    const body = toOpenAiChatRequest(request, { model: 'gpt-test', local: false });
    expect(
      body.messages.slice(3).map((message) => [message.role, 'tool_call_id' in message ? message.tool_call_id : '']),
    ).toEqual([
      ['tool', 'call_a'],
      ['tool', 'call_b'],
      ['tool', 'call_c'],
      ['user', ''],
    ]);
  });

  it('sends user images as image_url parts and takes vendor options without letting them replace its own fields', () => {
    const body = toOpenAiChatRequest(
      {
        tools: [],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', data: png, mimeType: 'image/png' },
            ],
          },
        ],
        providerOptions: { openai: { temperature: 0.2, model: 'other', stream: true, prompt_cache_key: 'k' } },
      },
      { model: 'gpt-test', local: false, providerOptionsKey: 'openai' },
    );
    expect(body).toEqual({
      temperature: 0.2,
      prompt_cache_key: 'k',
      model: 'gpt-test',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ],
    });
  });
});
