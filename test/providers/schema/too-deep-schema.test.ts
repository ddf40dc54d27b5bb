/**
 * A library caller's own tool definition can hold a schema nested far deeper than any server's message may (those
 * are refused at 128 levels when read). Normalising it must refuse it with an error naming the tool and the depth,
 * for every provider, instead of overflowing the stack; a schema within the limit is still offered.
 */
import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, MAX_JSON_DEPTH } from '../../../src/json/json-depth.js';
import { toAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.js';
import { toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.js';
import { toOpenAiChatRequest } from '../../../src/providers/openai-chat/to-openai-chat-request.js';
import { toOpenAiResponsesRequest } from '../../../src/providers/openai-responses/to-openai-responses-request.js';
import { normaliseToolSchema, SCHEMA_TARGETS } from '../../../src/providers/schema/index.js';
import { estimateToolTokens } from '../../../src/providers/token-estimate/o200k-token-estimate.js';
import type { ModelRequest } from '../../../src/providers/types.js';

/** `levels` objects nested as properties, built with a loop (a recursive builder would overflow first). */
function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 1; level < levels; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

/** JSON levels of `nestedSchema(levels)`: each level but the innermost adds its `properties` object. */
function jsonDepthOf(levels: number): number {
  return 2 * levels - 1;
}

const deepSchema = nestedSchema(100_000);
const refusal = `the input schema of tool "deep_tool" is nested deeper than ${MAX_JSON_DEPTH} levels`;

function request(inputSchema: Record<string, unknown>): ModelRequest {
  return {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: [{ name: 'deep_tool', description: 'Takes a deep value.', inputSchema }],
  };
}

function expectRefused(translate: () => unknown): void {
  let thrown: unknown;
  try {
    translate();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(JsonTooDeepError);
  expect((thrown as Error).message).toBe(refusal);
}

describe('a tool schema nested 100,000 levels deep', () => {
  it.each(SCHEMA_TARGETS)('is refused for %s, naming the tool and the depth', (target) => {
    expectRefused(() => normaliseToolSchema(deepSchema, target, 'deep_tool'));
  });

  it('is refused by every adapter and the token estimate, naming the tool', () => {
    expectRefused(() =>
      toAnthropicRequest(request(deepSchema), { model: 'claude-test', maxOutputTokens: 1024, stream: false }),
    );
    expectRefused(() =>
      toOpenAiChatRequest(request(deepSchema), { model: 'gpt-test', local: false, strictTools: true }),
    );
    expectRefused(() => toOpenAiResponsesRequest(request(deepSchema), { model: 'gpt-test' }));
    expectRefused(() => toGeminiRequest(request(deepSchema)));
    expectRefused(() => estimateToolTokens(request(deepSchema).tools[0]!, 'anthropic'));
  });

  it('without a tool name, says it was the input schema', () => {
    expect(() => normaliseToolSchema(deepSchema, 'anthropic')).toThrow(
      `the input schema is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });

  it('as does a schema that contains itself', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(() => normaliseToolSchema(cyclic, 'openai-chat', 'deep_tool')).toThrow(refusal);
  });
});

describe('a tool schema at the depth limit', () => {
  const levels = Math.floor((MAX_JSON_DEPTH + 1) / 2);

  it('is offered, its deepest levels as any value', () => {
    expect(jsonDepthOf(levels)).toBe(MAX_JSON_DEPTH - 1);
    const { schema, notes } = normaliseToolSchema(nestedSchema(levels), 'anthropic', 'deep_tool');
    expect(schema.type).toBe('object');
    expect(notes.some((note) => note.includes('nested deeper than'))).toBe(true);
  });

  it('one level deeper is refused', () => {
    expect(jsonDepthOf(levels + 1)).toBeGreaterThan(MAX_JSON_DEPTH);
    expect(() => normaliseToolSchema(nestedSchema(levels + 1), 'anthropic', 'deep_tool')).toThrow(refusal);
  });
});
