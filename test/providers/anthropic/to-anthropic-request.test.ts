import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { toAnthropicInputSchema } from '../../../src/providers/anthropic/to-anthropic-input-schema.js';
import { toAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.js';
import type { Message, ModelRequest } from '../../../src/providers/types.js';

const settings = { model: 'claude-test', maxOutputTokens: 4096, stream: false };
const png = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };

const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Read both files' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', id: 'toolu_a', name: 'files__read', argumentsText: '{"path":"a.txt"}' },
      { type: 'tool-call', id: 'toolu_b', name: 'files__read', argumentsText: '{"path": broken' },
    ],
  },
  {
    role: 'tool',
    results: [
      { callId: 'toolu_a', toolName: 'files__read', content: [{ type: 'text', text: 'alpha' }, png], isError: false },
      { callId: 'toolu_b', toolName: 'files__read', content: [{ type: 'text', text: 'bad arguments' }], isError: true },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'And summarise.' }] },
];

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are terse.',
    tools: [
      {
        name: 'files__read',
        description: 'Read a file',
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { path: { type: 'string' } },
        },
      },
      { name: 'clock__now', description: '', inputSchema: {} },
    ],
    messages: conversation,
    ...overrides,
  };
}

describe('toAnthropicInputSchema', () => {
  it('gives an object root with properties and drops $schema and $id', () => {
    expect(toAnthropicInputSchema({})).toEqual({ type: 'object', properties: {} });
    expect(
      toAnthropicInputSchema({ $id: 'x', $schema: 'y', type: 'object', required: ['a'], properties: { a: {} } }),
    ).toEqual({
      type: 'object',
      required: ['a'],
      properties: { a: {} },
    });
  });

  it('keeps $ref/$defs and serialises any key order to the same bytes', () => {
    const schema = { type: 'object', $defs: { p: { type: 'string' } }, properties: { a: { $ref: '#/$defs/p' } } };
    const reordered = { properties: { a: { $ref: '#/$defs/p' } }, $defs: { p: { type: 'string' } }, type: 'object' };
    expect(toAnthropicInputSchema(schema)).toEqual(schema);
    expect(JSON.stringify(toAnthropicInputSchema(reordered))).toBe(JSON.stringify(toAnthropicInputSchema(schema)));
  });
});

describe('toAnthropicRequest', () => {
  it('maps tools, system and settings', () => {
    const body = toAnthropicRequest(request(), settings);
    expect(body.model).toBe('claude-test');
    expect(body.max_tokens).toBe(4096);
    expect(body.stream).toBeUndefined();
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools).toEqual([
      {
        name: 'files__read',
        description: 'Read a file',
        input_schema: { type: 'object', properties: { path: { type: 'string' } } },
      },
      { name: 'clock__now', input_schema: { type: 'object', properties: {} }, cache_control: { type: 'ephemeral' } },
    ]);
    expect(toAnthropicRequest(request({ maxOutputTokens: 99 }), { ...settings, stream: true })).toMatchObject({
      max_tokens: 99,
      stream: true,
    });
  });

  it('sends tool calls with parsed input ({} for invalid JSON) and all results as ONE user message, results first', () => {
    const messages = toAnthropicRequest(request(), settings).messages as (MessageParam & { content: unknown[] })[];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'toolu_a', name: 'files__read', input: { path: 'a.txt' } },
      { type: 'tool_use', id: 'toolu_b', name: 'files__read', input: {} },
    ]);
    const results = messages[2]?.content;
    expect(results).toHaveLength(3);
    expect(results?.[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_a',
      content: [
        { type: 'text', text: 'alpha' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
      is_error: false,
    });
    expect(results?.[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_b',
      content: [{ type: 'text', text: 'bad arguments' }],
      is_error: true,
    });
    expect(results?.[2]).toEqual({ type: 'text', text: 'And summarise.', cache_control: { type: 'ephemeral' } });
  });

  it("places at most 4 cache breakpoints: last tool, system, last message, and the previous request's last message", () => {
    const body = toAnthropicRequest(request(), settings);
    const text = JSON.stringify(body);
    expect(text.match(/"cache_control"/g)).toHaveLength(4);
    const messages = body.messages as unknown as { content: Record<string, unknown>[] }[];
    expect(messages[0]?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(messages[1]?.content.some((block) => 'cache_control' in block)).toBe(false);

    const single = toAnthropicRequest(
      request({ system: undefined, tools: [], messages: conversation.slice(0, 1) }),
      settings,
    );
    expect(JSON.stringify(single).match(/"cache_control"/g)).toHaveLength(1);
    expect(single.system).toBeUndefined();
    expect(single.tools).toBeUndefined();
  });

  it('merges adjacent messages of one role, drops empty text and replaces unsupported images with a note', () => {
    const body = toAnthropicRequest(
      request({
        tools: [],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'one' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: '' },
              { type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: '' }] },
          { role: 'user', content: [{ type: 'text', text: 'two' }] },
        ],
      }),
      settings,
    );
    expect(body.messages).toHaveLength(1);
    const content = body.messages[0]?.content as { type: string; text?: string }[];
    expect(content.map((block) => block.text)).toEqual([
      'one',
      '[image of type image/svg+xml omitted: Anthropic accepts jpeg, png, gif and webp]',
      'two',
    ]);
  });

  it('keeps assistant messages in a row apart: a paused answer, then its continuation', () => {
    const body = toAnthropicRequest(
      request({
        tools: [],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Searching' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Found it' }] },
        ],
      }),
      settings,
    );
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(body.messages[2]?.content).toEqual([expect.objectContaining({ type: 'text', text: 'Found it' })]);
  });

  it('passes vendor options from providerOptions.anthropic without letting them override owned keys', () => {
    const body = toAnthropicRequest(
      request({
        providerOptions: { anthropic: { temperature: 0.2, model: 'other', messages: [] }, openai: { seed: 1 } },
      }),
      settings,
    );
    expect(body).toMatchObject({ temperature: 0.2, model: 'claude-test' });
    expect(body.messages).toHaveLength(3);
    expect(body).not.toHaveProperty('seed');
  });

  it('is deterministic: the same request serialises to the same bytes', () => {
    expect(JSON.stringify(toAnthropicRequest(request(), settings))).toBe(
      JSON.stringify(toAnthropicRequest(request(), settings)),
    );
  });
});
