import { describe, expect, it } from 'vitest';
import { checkProviderSchema, checkToolName } from '../../../src/providers/schema/index.js';

describe('checkProviderSchema', () => {
  it('accepts a plain object schema', () => {
    expect(checkProviderSchema({ type: 'object', properties: { a: { type: 'string' } } }, 'gemini')).toEqual([]);
  });

  it.each([
    [{ type: 'string' }, 'openai-chat', /type must be "object"/],
    [{ type: 'object' }, 'openai-chat', /"properties" must be present/],
    [{ type: 'object', properties: {}, anyOf: [{}] }, 'anthropic', /"anyOf" is not accepted at the root/],
    [{ $schema: 'x', type: 'object', properties: {} }, 'anthropic', /"\$schema" must be stripped/],
    [
      { type: 'object', properties: { a: { type: 'object', properties: {}, $id: 'urn:a' } } },
      'anthropic',
      /\/properties\/a: "\$id" must be stripped/,
    ],
    [
      { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' } } },
      'openai-compatible',
      /\$ref must be inlined/,
    ],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } }, 'anthropic', /does not exist/],
    [
      { type: 'object', properties: { a: { $ref: '#/definitions/A' } }, definitions: { A: {} } },
      'openai-chat',
      /must point into the root \$defs/,
    ],
    [{ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } }, 'gemini', /"pattern" is not accepted/],
    [{ type: 'object', properties: { a: { type: 'string', format: 'uri' } } }, 'openai-chat', /format "uri"/],
    [{ type: 'object', properties: { a: { enum: [true, false] } } }, 'gemini', /only hold strings and numbers/],
    [{ type: 'object', properties: { a: { const: 1 } } }, 'gemini', /"const" is not accepted/],
    [{ type: 'object', properties: { a: { oneOf: [{}] } } }, 'openai-compatible', /"oneOf" is not accepted/],
    [{ type: 'object', properties: {}, required: ['ghost'] }, 'openai-responses', /"ghost", which is not a property/],
    [{ type: 'object', properties: { a: { type: 'int' } } }, 'anthropic', /not a JSON Schema type/],
    [
      { type: 'object', properties: { a: { patternProperties: {} } } },
      'anthropic',
      /"patternProperties" is not accepted/,
    ],
    [{ type: 'object', properties: { a: { type: 'number', maximum: Number.NaN } } }, 'anthropic', /not a JSON number/],
  ] as const)('finds the problem in %j for %s', (schema, target, problem) => {
    const problems = checkProviderSchema(schema, target);
    expect(
      problems.some((text) => problem.test(text)),
      problems.join('\n'),
    ).toBe(true);
  });
});

describe('checkToolName', () => {
  it('applies each target naming rule', () => {
    expect(checkToolName('github__create_issue', 'openai-chat')).toEqual([]);
    expect(checkToolName('fs.read:v2', 'gemini')).toEqual([]);
    expect(checkToolName('fs.read', 'anthropic')[0]).toMatch(/naming rule/);
    expect(checkToolName('1password__get', 'gemini')[0]).toMatch(/starts with a letter/);
    expect(checkToolName('1password__get', 'openai-responses')).toEqual([]);
    expect(checkToolName('x'.repeat(65), 'anthropic')[0]).toMatch(/longer than 64/);
  });
});
