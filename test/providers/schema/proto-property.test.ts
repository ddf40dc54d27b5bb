/**
 * A key named `__proto__` is ordinary data in JSON (`JSON.parse` makes it an own property), so a tool may
 * declare a property by that name. Copying such a schema with `copy[key] = value` would drop the property and
 * make the copy inherit the server's object: each provider's translation must keep it as an own property and
 * inherit nothing.
 */
import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.js';
import { toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.js';
import { toOpenAiChatRequest } from '../../../src/providers/openai-chat/to-openai-chat-request.js';
import { toOpenAiResponsesRequest } from '../../../src/providers/openai-responses/to-openai-responses-request.js';
import {
  normaliseToolSchema,
  removeStrictNullPlaceholders,
  SCHEMA_TARGETS,
  toStrictSchema,
} from '../../../src/providers/schema/index.js';
import type { ModelRequest } from '../../../src/providers/types.js';

/** A property named `__proto__` (required) beside an ordinary one, as a server's JSON declares it. */
const protoPropertySchemaText =
  '{"type":"object","properties":{"__proto__":{"type":"string","description":"The prototype name."},"name":{"type":"string"}},"required":["__proto__"]}';

/**
 * Schemas whose `__proto__` keyword (not a property) holds what an attacker would like a copy to inherit: a
 * `type` that would turn the object root into a string, or a `$ref` that would replace the root by another shape.
 */
const protoKeywordSchemaTexts = [
  '{"properties":{"name":{"type":"string"}},"__proto__":{"type":"string"}}',
  '{"required":["name"],"$defs":{"Other":{"type":"object","properties":{"stolen":{"type":"string"}}}},"__proto__":{"$ref":"#/$defs/Other"}}',
];

function request(schemaText: string): ModelRequest {
  return {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: [{ name: 'proto_tool', description: 'Takes a prototype name.', inputSchema: JSON.parse(schemaText) }],
  };
}

/** Every object in `value` has the plain object prototype: nothing of the server's is inherited anywhere. */
function expectNothingInherited(value: unknown, path = '(root)'): void {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) expect(Object.getPrototypeOf(value), path).toBe(Object.prototype);
  for (const [key, item] of Object.entries(value)) expectNothingInherited(item, `${path}/${key}`);
}

/** The `properties` map carries `__proto__` as an own property holding the declared schema. */
function expectProtoProperty(properties: unknown, type: string): void {
  expect(Object.hasOwn(properties as object, '__proto__')).toBe(true);
  const declared = Object.getOwnPropertyDescriptor(properties, '__proto__')?.value as Record<string, unknown>;
  expect(declared.type).toBe(type);
  expect(Object.keys(properties as object)).toEqual(['__proto__', 'name']);
}

describe('a property named __proto__', () => {
  it.each(SCHEMA_TARGETS)('survives normalisation for %s as an own, required property', (target) => {
    const { schema } = normaliseToolSchema(JSON.parse(protoPropertySchemaText), target);
    expectProtoProperty(schema.properties, 'string');
    expect(schema.required).toEqual(['__proto__']);
    expect(JSON.stringify(schema)).toContain('"properties":{"__proto__":{"type":"string"');
    expectNothingInherited(schema);
  });

  it('reaches Anthropic input_schema', () => {
    const body = toAnthropicRequest(request(protoPropertySchemaText), {
      model: 'claude-test',
      maxOutputTokens: 1024,
      stream: false,
    });
    const tool = body.tools?.[0] as { input_schema: Record<string, unknown> };
    expectProtoProperty(tool.input_schema.properties, 'string');
    expect(tool.input_schema.required).toEqual(['__proto__']);
    expectNothingInherited(body.tools);
  });

  it.each([false, true])('reaches OpenAI Chat parameters (strict: %s)', (strictTools) => {
    const body = toOpenAiChatRequest(request(protoPropertySchemaText), {
      model: 'gpt-test',
      local: false,
      strictTools,
    });
    const tool = body.tools?.[0] as { function: { parameters: Record<string, unknown>; strict?: boolean } };
    expect(tool.function.strict === true).toBe(strictTools);
    expectProtoProperty(tool.function.parameters.properties, 'string');
    expect(tool.function.parameters.required).toEqual(strictTools ? ['__proto__', 'name'] : ['__proto__']);
    expectNothingInherited(body.tools);
  });

  it.each([false, true])('reaches OpenAI Responses parameters (strict: %s)', (strictTools) => {
    const body = toOpenAiResponsesRequest(request(protoPropertySchemaText), { model: 'gpt-test', strictTools });
    const tool = body.tools?.[0] as { parameters: Record<string, unknown>; strict: boolean };
    expect(tool.strict).toBe(strictTools);
    expectProtoProperty(tool.parameters.properties, 'string');
    expectNothingInherited(body.tools);
  });

  it('reaches Gemini parameters in its own Schema spelling', () => {
    const { request: body } = toGeminiRequest(request(protoPropertySchemaText));
    const declaration = body.config.tools?.[0] as { functionDeclarations: { parameters: Record<string, unknown> }[] };
    const parameters = declaration.functionDeclarations[0]!.parameters;
    expectProtoProperty(parameters.properties, 'STRING');
    expect(parameters.required).toEqual(['__proto__']);
    expectNothingInherited(body.config.tools);
  });

  it('keeps a $defs entry named __proto__ that a $ref points to', () => {
    const { schema } = normaliseToolSchema(
      JSON.parse(
        '{"type":"object","properties":{"item":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"object","properties":{"next":{"$ref":"#/$defs/__proto__"}}}}}',
      ),
      'anthropic',
    );
    expect(Object.hasOwn(schema.$defs as object, '__proto__')).toBe(true);
    expect(JSON.stringify(schema.$defs)).toBe(
      '{"__proto__":{"type":"object","properties":{"next":{"$ref":"#/$defs/__proto__"}}}}',
    );
    expectNothingInherited(schema);
  });

  it('survives allOf merging', () => {
    const { schema } = normaliseToolSchema(
      JSON.parse(
        '{"allOf":[{"type":"object","properties":{"__proto__":{"type":"integer"}}},{"properties":{"__proto__":{"minimum":1},"name":{"type":"string"}}}]}',
      ),
      'anthropic',
    );
    expect(Object.hasOwn(schema.properties as object, '__proto__')).toBe(true);
    expect(JSON.stringify(schema.properties)).toBe(
      '{"__proto__":{"allOf":[{"type":"integer"},{"minimum":1}]},"name":{"type":"string"}}',
    );
    expectNothingInherited(schema);
  });

  it("is kept in a strict model's arguments when null placeholders are removed", () => {
    const { schema } = normaliseToolSchema(JSON.parse(protoPropertySchemaText), 'openai-chat');
    expect(toStrictSchema(schema)).toBeDefined();
    const cleaned = removeStrictNullPlaceholders(JSON.parse('{"__proto__":"Base","name":null}'), schema);
    expect(Object.hasOwn(cleaned as object, '__proto__')).toBe(true);
    expect(JSON.stringify(cleaned)).toBe('{"__proto__":"Base"}');
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
  });
});

describe('a __proto__ keyword', () => {
  const cases = SCHEMA_TARGETS.flatMap((target) => protoKeywordSchemaTexts.map((text) => [target, text] as const));
  it.each(cases)('lends nothing to the schema for %s: the root stays the declared object (%s)', (target, text) => {
    const { schema, wrapped } = normaliseToolSchema(JSON.parse(text), target);
    expect(wrapped).toBe(false);
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties as object)).not.toContain('stolen');
    expect(JSON.stringify(schema)).not.toContain('"stolen":');
    expectNothingInherited(schema);
  });
});
