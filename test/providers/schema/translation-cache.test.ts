/**
 * A tool's schema is translated once per provider target and shared by later requests (the same tools go out every
 * turn): the same translation comes back, frozen so no request can change it for the next, and a changed tool (a
 * new definition object) is translated anew.
 */
import { describe, expect, it } from 'vitest';
import { toOpenAiFunctionSchema } from '../../../src/providers/openai-chat/openai-tool-schema.js';
import { normaliseToolSchema } from '../../../src/providers/schema/index.js';

function schema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { path: { type: 'string', minLength: 1 }, depth: { type: 'integer', minimum: 0 } },
    required: ['path'],
  };
}

describe('schema translation cache', () => {
  it('answers the same schema with the same, frozen translation per target', () => {
    const input = schema();
    const first = normaliseToolSchema(input, 'gemini', 'files__read');
    expect(normaliseToolSchema(input, 'gemini', 'files__read')).toBe(first);
    expect(Object.isFrozen(first.schema)).toBe(true);
    expect(Object.isFrozen(first.schema.properties)).toBe(true);
    expect(() => {
      (first.schema.properties as Record<string, unknown>).extra = {};
    }).toThrow(TypeError);
    const anthropic = normaliseToolSchema(input, 'anthropic', 'files__read');
    expect(anthropic).not.toBe(first);
    expect(anthropic.schema).toEqual(normaliseToolSchema(schema(), 'anthropic').schema);
  });

  it('translates a new definition object anew, even with the same content', () => {
    const first = normaliseToolSchema(schema(), 'openai-chat');
    const second = normaliseToolSchema(schema(), 'openai-chat');
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it("keeps OpenAI's strict form beside the normalised one, and the non-strict form when strict is not allowed", () => {
    const input = {
      type: 'object',
      properties: { path: { type: 'string' }, depth: { type: 'integer' } },
      required: ['path'],
    };
    const strict = toOpenAiFunctionSchema(input, { allowStrict: true });
    expect(strict.strict).toBe(true);
    expect(toOpenAiFunctionSchema(input, { allowStrict: true }).parameters).toBe(strict.parameters);
    expect(Object.isFrozen(strict.parameters)).toBe(true);
    expect(strict.parameters.required).toEqual(['path', 'depth']);
    const loose = toOpenAiFunctionSchema(input, { allowStrict: false });
    expect(loose.strict).toBe(false);
    expect(loose.parameters).toBe(strict.normalised);
    expect(loose.parameters.required).toEqual(['path']);
  });

  it('does not keep a failure: the error comes again, naming the tool each time', () => {
    const tooDeep: Record<string, unknown> = { type: 'object', properties: {} };
    let node = tooDeep.properties as Record<string, unknown>;
    for (let depth = 0; depth < 200; depth += 1) {
      const child: Record<string, unknown> = { type: 'object', properties: {} };
      node.child = child;
      node = child.properties as Record<string, unknown>;
    }
    expect(() => normaliseToolSchema(tooDeep, 'anthropic', 'deep__one')).toThrow(/deep__one/);
    expect(() => normaliseToolSchema(tooDeep, 'anthropic', 'deep__two')).toThrow(/deep__two/);
  });
});
