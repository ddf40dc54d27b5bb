import { describe, expect, it } from 'vitest';
import {
  checkProviderSchema,
  normaliseToolSchema,
  removeStrictNullPlaceholders,
  toStrictSchema,
} from '../../../src/providers/schema/index.js';
import { loadCorpus, validate } from './corpus.js';

type Json = Record<string, unknown>;

/** What a strict model sends: every optional property the example left out is given as null. */
function fillOmittedWithNull(value: unknown, schema: unknown, definitions: Json): unknown {
  let node = schema as Json | undefined;
  while (node && typeof node.$ref === 'string') node = definitions[node.$ref.replace('#/$defs/', '')] as Json;
  if (!node) return value;
  if (Array.isArray(value)) {
    const items = (node.items ?? (node.anyOf as Json[] | undefined)?.find((branch) => branch.items)?.items) as Json;
    return items ? value.map((item) => fillOmittedWithNull(item, items, definitions)) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const objectSchema = node.properties
    ? node
    : (node.anyOf as Json[] | undefined)?.find((branch) => {
        const keys = Object.keys((branch.properties as Json | undefined) ?? {});
        return Object.keys(value).every((key) => keys.includes(key));
      });
  if (!objectSchema) return value;
  const filled: Json = {};
  for (const [name, property] of Object.entries(objectSchema.properties as Json)) {
    filled[name] = name in value ? fillOmittedWithNull((value as Json)[name], property, definitions) : null;
  }
  return filled;
}

describe('toStrictSchema', () => {
  it('closes every object, requires every property and makes optional ones nullable', () => {
    const { schema } = normaliseToolSchema(
      {
        type: 'object',
        properties: {
          path: { type: 'string' },
          edits: {
            type: 'array',
            items: { type: 'object', properties: { old: { type: 'string' }, replace: { $ref: '#/$defs/R' } } },
          },
        },
        required: ['path'],
        $defs: { R: { type: 'object', properties: { text: { type: 'string', enum: ['a', 'b'] } } } },
      },
      'openai-responses',
    );
    expect(toStrictSchema(schema)).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: {
              old: { type: ['string', 'null'] },
              replace: { anyOf: [{ $ref: '#/$defs/R' }, { type: 'null' }] },
            },
            required: ['old', 'replace'],
            additionalProperties: false,
          },
        },
      },
      required: ['path', 'edits'],
      additionalProperties: false,
      $defs: {
        R: {
          type: 'object',
          properties: { text: { type: ['string', 'null'], enum: ['a', 'b', null] } },
          required: ['text'],
          additionalProperties: false,
        },
      },
    });
  });

  it('answers undefined for what strict mode cannot express', () => {
    const cannot = [
      { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } },
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } } },
      { type: 'object', properties: { s: { type: 'string', minLength: 2 } } },
      { type: 'object', properties: { anything: {} } },
      { type: 'object', properties: { site: { type: 'string', format: 'uri' } } },
    ];
    for (const schema of cannot) expect(toStrictSchema(schema), JSON.stringify(schema)).toBeUndefined();
  });

  it('answers undefined past ten levels of nesting', () => {
    const entry = loadCorpus().find((candidate) => candidate.file === 'very-deep-nesting.json');
    expect(entry).toBeDefined();
    expect(toStrictSchema(normaliseToolSchema(entry?.inputSchema, 'openai-chat').schema)).toBeUndefined();
  });

  it('does not change its input', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const before = JSON.stringify(schema);
    toStrictSchema(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });
});

describe.each(loadCorpus().map((entry) => [entry.file, entry] as const))('strict form of %s', (_file, entry) => {
  const normalised = normaliseToolSchema(entry.inputSchema, 'openai-responses');
  const strict = toStrictSchema(normalised.schema);

  it('is either undefined or a schema the example (as a strict model sends it) satisfies', () => {
    if (strict === undefined) return;
    expect(checkProviderSchema(strict, 'openai-responses')).toEqual([]);
    const args = normalised.wrapped ? { value: entry.example } : entry.example;
    const definitions = (strict.$defs ?? {}) as Json;
    const strictArgs = fillOmittedWithNull(args, strict, definitions);
    expect(validate(strict, strictArgs)).toEqual({ valid: true, errorMessage: undefined });
    expect(removeStrictNullPlaceholders(strictArgs, normalised.schema)).toEqual(args);
  });
});

describe('removeStrictNullPlaceholders', () => {
  it('keeps a null the original schema allows, and a null for a required property', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, b: { type: 'string' }, c: { type: 'string' } },
      required: ['c'],
    };
    expect(removeStrictNullPlaceholders({ a: null, b: null, c: null }, schema)).toEqual({ a: null, c: null });
  });
});

describe('the corpus under strict mode', () => {
  it('has schemas on both sides: some can be strict and some cannot', () => {
    const results = loadCorpus().map((entry) =>
      toStrictSchema(normaliseToolSchema(entry.inputSchema, 'openai-chat').schema),
    );
    expect(results.filter((result) => result !== undefined).length).toBeGreaterThanOrEqual(10);
    expect(results.filter((result) => result === undefined).length).toBeGreaterThanOrEqual(5);
  });
});
