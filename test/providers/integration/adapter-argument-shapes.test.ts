/**
 * The adapters' side of the shared normaliser, without a network: which tools go wrapped or strict,
 * how a call's arguments are put back into the server's shape, and how they are re-wrapped when the
 * call is replayed in the history. (The same paths run end to end in arguments-reach-server.)
 */
import type { Message as AnthropicMessage } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamAccumulator } from '../../../src/providers/anthropic/anthropic-stream-accumulator.js';
import { fromAnthropicResponse } from '../../../src/providers/anthropic/from-anthropic-response.js';
import { translateAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.js';
import {
  argumentsForModel,
  argumentsForServer,
  withServerArguments,
} from '../../../src/providers/openai-chat/openai-tool-arguments.js';
import { toOpenAiFunctionSchema } from '../../../src/providers/openai-chat/openai-tool-schema.js';
import { translateOpenAiChatRequest } from '../../../src/providers/openai-chat/to-openai-chat-request.js';
import { translateOpenAiResponsesRequest } from '../../../src/providers/openai-responses/to-openai-responses-request.js';
import { checkProviderSchema } from '../../../src/providers/schema/index.js';
import type { ModelRequest, ToolDefinition } from '../../../src/providers/types.js';

const union: ToolDefinition = {
  name: 'shop__pick',
  description: 'Pick one',
  inputSchema: {
    type: 'object',
    anyOf: [
      { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    ],
  },
};
const optional: ToolDefinition = {
  name: 'shop__search',
  description: 'Search',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer' }, note: { type: ['string', 'null'] } },
    required: ['query'],
  },
};

function history(argumentsText: string): ModelRequest {
  return {
    system: 'Be brief.',
    tools: [union, optional],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'pick Ada' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: union.name, argumentsText }] },
      {
        role: 'tool',
        results: [{ callId: 'call_1', toolName: union.name, content: [{ type: 'text', text: 'ok' }], isError: false }],
      },
    ],
  };
}

describe('OpenAI tool schemas through the shared normaliser', () => {
  it('strict when it can be: optional properties become required and nullable', () => {
    const schema = toOpenAiFunctionSchema(optional.inputSchema, { allowStrict: true, target: 'openai-chat' });
    expect(schema.strict).toBe(true);
    expect(schema.wrapped).toBe(false);
    expect(schema.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: ['integer', 'null'] },
        note: { type: ['string', 'null'] },
      },
      required: ['query', 'limit', 'note'],
      additionalProperties: false,
    });
    expect(checkProviderSchema(schema.normalised, 'openai-chat')).toEqual([]);
  });

  it('a wrapped union is offered as {value: …}; it stays non-strict rather than risk a rejected request', () => {
    const schema = toOpenAiFunctionSchema(union.inputSchema, { allowStrict: true, target: 'openai-responses' });
    expect(schema.wrapped).toBe(true);
    expect(schema.strict).toBe(false);
    expect(schema.parameters).toMatchObject({ type: 'object', required: ['value'] });
    expect(checkProviderSchema(schema.parameters, 'openai-responses')).toEqual([]);
  });

  it('local servers get inlined references and no strict', () => {
    const schema = toOpenAiFunctionSchema(
      {
        type: 'object',
        $defs: { point: { type: 'object', properties: { x: { type: 'number' } } } },
        properties: { at: { $ref: '#/$defs/point' } },
      },
      { allowStrict: false, target: 'openai-compatible' },
    );
    expect(schema.strict).toBe(false);
    expect(JSON.stringify(schema.parameters)).not.toContain('$ref');
    expect(checkProviderSchema(schema.parameters, 'openai-compatible')).toEqual([]);
  });
});

describe('arguments between the model and the server', () => {
  const strictShape = {
    wrapped: false,
    strictFrom: toOpenAiFunctionSchema(optional.inputSchema, { allowStrict: true }).normalised,
  };

  it('removes strict null placeholders, but keeps a null the server allows', () => {
    expect(JSON.parse(argumentsForServer('{"query":"a","limit":null,"note":null}', strictShape))).toEqual({
      query: 'a',
      note: null,
    });
  });

  it('unwraps a wrapped root, and re-wraps it for the history', () => {
    const shape = { wrapped: true };
    expect(argumentsForServer('{"value":{"name":"Ada"}}', shape)).toBe('{"name":"Ada"}');
    expect(argumentsForModel('{"name":"Ada"}', shape)).toBe('{"value":{"name":"Ada"}}');
  });

  it('leaves text that is not a JSON object exactly as the model sent it', () => {
    for (const text of ['{"value":', '', '[1,2]', 'null']) {
      expect(argumentsForServer(text, { wrapped: true })).toBe(text);
    }
    expect(argumentsForServer('{"value":1}', undefined)).toBe('{"value":1}');
  });

  it('only tool calls of known tools change', () => {
    const parts = withServerArguments(
      [
        { type: 'text', text: 'x' },
        { type: 'tool-call', id: 'a', name: 'shop__pick', argumentsText: '{"value":{"id":1}}' },
        { type: 'tool-call', id: 'b', name: 'other', argumentsText: '{"value":{"id":1}}' },
      ],
      new Map([['shop__pick', { wrapped: true }]]),
    );
    expect(parts.map((part) => (part.type === 'tool-call' ? part.argumentsText : part.text))).toEqual([
      'x',
      '{"id":1}',
      '{"value":{"id":1}}',
    ]);
  });
});

describe('history replays the call as the model sent it', () => {
  it('OpenAI Chat', () => {
    const { body, toolShapes } = translateOpenAiChatRequest(history('{"name":"Ada"}'), { model: 'm', local: false });
    expect(toolShapes.get(union.name)).toEqual({ wrapped: true });
    // Strict mode is opt-in: only then are the model's null placeholders to be removed.
    expect(toolShapes.get(optional.name)).toEqual({ wrapped: false });
    const strict = translateOpenAiChatRequest(history('{"name":"Ada"}'), {
      model: 'm',
      local: false,
      strictTools: true,
    });
    expect(strict.toolShapes.get(optional.name)?.strictFrom).toBeDefined();
    const assistant = body.messages.find((message) => message.role === 'assistant');
    expect(assistant && 'tool_calls' in assistant ? assistant.tool_calls : undefined).toEqual([
      { id: 'call_1', type: 'function', function: { name: union.name, arguments: '{"value":{"name":"Ada"}}' } },
    ]);
  });

  it('OpenAI Responses', () => {
    const { body } = translateOpenAiResponsesRequest(history('{"name":"Ada"}'), { model: 'gpt-4.1' });
    expect(Array.isArray(body.input) && body.input.find((item) => item.type === 'function_call')).toEqual({
      type: 'function_call',
      call_id: 'call_1',
      name: union.name,
      arguments: '{"value":{"name":"Ada"}}',
    });
  });

  it('Anthropic', () => {
    const { body, wrappedTools } = translateAnthropicRequest(history('{"name":"Ada"}'), {
      model: 'm',
      maxOutputTokens: 100,
      stream: false,
    });
    expect([...wrappedTools]).toEqual([union.name]);
    const toolUse = body.messages[1]?.content;
    expect(Array.isArray(toolUse) && toolUse[0]).toMatchObject({ type: 'tool_use', input: { value: { name: 'Ada' } } });
    const pick = body.tools?.find((tool) => 'name' in tool && tool.name === union.name);
    expect(pick && 'input_schema' in pick ? pick.input_schema.required : undefined).toEqual(['value']);
  });
});

describe('Anthropic answers: wrapped input unwrapped, streamed or not', () => {
  const wrappedTools = new Set([union.name]);

  it('a whole message', () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', id: 'toolu_1', name: union.name, input: { value: { id: 7 } } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    } as unknown as AnthropicMessage;
    expect(fromAnthropicResponse(message, { wrappedTools }).message.content).toEqual([
      { type: 'tool-call', id: 'toolu_1', name: union.name, argumentsText: '{"id":7}' },
    ]);
    // Without the context (a caller that did not translate the request) the input is kept as sent.
    expect(fromAnthropicResponse(message).message.content[0]).toMatchObject({ argumentsText: '{"value":{"id":7}}' });
  });

  it('a stream, whose fragments only parse once whole', () => {
    const accumulator = new AnthropicStreamAccumulator(undefined, { wrappedTools });
    const events = [
      { type: 'message_start', message: { usage: { input_tokens: 1, output_tokens: 0 } } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: union.name, input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"value":{"na' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'me":"Ada"}}' } },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_2', name: union.name, input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"value":' } },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ];
    for (const event of events) accumulator.add(event as Parameters<AnthropicStreamAccumulator['add']>[0]);
    expect(accumulator.result().message.content).toEqual([
      { type: 'tool-call', id: 'toolu_1', name: union.name, argumentsText: '{"name":"Ada"}' },
      // Cut-off JSON stays as sent: the loop tells the model what was wrong with it.
      { type: 'tool-call', id: 'toolu_2', name: union.name, argumentsText: '{"value":' },
    ]);
  });
});
