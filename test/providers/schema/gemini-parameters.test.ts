import { describe, expect, it } from 'vitest';
import { geminiToolParameters, normaliseToolSchema } from '../../../src/providers/schema/index.js';
import { checkGeminiParameters } from '../../../src/testing/mock-llm/wires/gemini-schema-check.js';
import { loadCorpus } from './corpus.js';

const fieldsFor = (inputSchema: unknown) => geminiToolParameters(inputSchema).fields;

/** Gemini's spelling back to JSON Schema's: upper-case type names lower-cased, nothing else touched. */
function lowerCaseTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerCaseTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'type' && typeof value === 'string') return [key, value.toLowerCase()];
      if (key === 'enum' || key === 'required') return [key, value];
      if (key === 'properties') {
        return [key, Object.fromEntries(Object.entries(value as object).map(([n, s]) => [n, lowerCaseTypes(s)]))];
      }
      return [key, lowerCaseTypes(value)];
    }),
  );
}

describe('geminiToolParameters', () => {
  it('sends a schema inside Gemini’s Schema subset as `parameters`, type names upper-case, nothing else changed', () => {
    const inputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'Search',
      properties: {
        query: { type: 'string', description: 'What to look for', default: 'all' },
        since: { type: 'string', format: 'date-time' },
        order: { type: 'string', enum: ['newest', 'oldest'] },
        kind: { const: 'issue' },
        limit: { type: 'integer', format: 'int32', minimum: 1, maximum: 100 },
        score: { type: 'number', format: 'double' },
        open: { type: 'boolean' },
        labels: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
        author: {
          type: 'object',
          properties: { login: { type: 'string' }, id: { type: 'integer' } },
          required: ['login'],
        },
      },
      required: ['query'],
    };
    expect(fieldsFor(inputSchema)).toEqual({
      parameters: {
        type: 'OBJECT',
        title: 'Search',
        properties: {
          // `default` stays in the description: Gemini documents its `default` field as ignored.
          query: { type: 'STRING', description: 'What to look for\nDefault all' },
          since: { type: 'STRING', format: 'date-time' },
          order: { type: 'STRING', enum: ['newest', 'oldest'] },
          kind: { type: 'STRING', enum: ['issue'] },
          limit: { type: 'INTEGER', format: 'int32', minimum: 1, maximum: 100 },
          score: { type: 'NUMBER', format: 'double' },
          open: { type: 'BOOLEAN' },
          labels: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1, maxItems: 5 },
          author: {
            type: 'OBJECT',
            properties: { login: { type: 'STRING' }, id: { type: 'INTEGER' } },
            required: ['login'],
          },
        },
        required: ['query'],
      },
    });
  });

  it.each([
    [
      'a recursive $ref',
      {
        type: 'object',
        properties: { tree: { $ref: '#/$defs/node' } },
        $defs: {
          node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
        },
      },
    ],
    [
      'oneOf (sent as anyOf)',
      { type: 'object', properties: { id: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } },
    ],
    ['anyOf', { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }],
    [
      'additionalProperties (a map)',
      { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } },
    ],
    [
      'additionalProperties: false',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    ],
    [
      'patternProperties',
      {
        type: 'object',
        properties: { env: { type: 'object', patternProperties: { '^[A-Z]+$': { type: 'string' } } } },
      },
    ],
    ['a number const', { type: 'object', properties: { version: { const: 2 } } }],
    ['an enum of numbers', { type: 'object', properties: { level: { type: 'integer', enum: [1, 2, 3] } } }],
    ['a nullable type', { type: 'object', properties: { note: { type: ['string', 'null'] } } }],
    [
      'a string format Gemini’s Schema refuses',
      { type: 'object', properties: { day: { type: 'string', format: 'date' } } },
    ],
    ['a property without a type', { type: 'object', properties: { anything: {} } }],
    ['an array without items', { type: 'object', properties: { list: { type: 'array' } } }],
    ['an object without properties', { type: 'object', properties: { options: { type: 'object' } } }],
    ['prefixItems', { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } } }],
    [
      'string lengths beside a keyword Gemini’s Schema refuses (they are then described)',
      { type: 'object', properties: { id: { type: 'string', minLength: 3 }, tags: { type: 'object' } } },
    ],
  ])('keeps JSON Schema in `parametersJsonSchema` for %s', (_case, inputSchema) => {
    const { schema } = normaliseToolSchema(inputSchema, 'gemini');
    expect(fieldsFor(inputSchema)).toEqual({ parametersJsonSchema: schema });
  });

  it('takes string lengths as keywords in `parameters`, where the JSON Schema field has them described', () => {
    const inputSchema = {
      type: 'object',
      properties: { sku: { type: 'string', description: 'The unit', minLength: 1, maxLength: 20 } },
      required: ['sku'],
    };
    expect(fieldsFor(inputSchema)).toEqual({
      parameters: {
        type: 'OBJECT',
        properties: { sku: { type: 'STRING', description: 'The unit', minLength: 1, maxLength: 20 } },
        required: ['sku'],
      },
    });
    const withMap = { ...inputSchema, properties: { ...inputSchema.properties, extra: { type: 'object' } } };
    const { parametersJsonSchema } = fieldsFor(withMap);
    expect(parametersJsonSchema?.properties).toEqual({
      sku: { type: 'string', description: 'The unit\nConstraints: maxLength: 20; minLength: 1' },
      extra: { type: 'object' },
    });
  });

  it('tells the wrapped root apart, as the normaliser does', () => {
    expect(geminiToolParameters({ type: 'array', items: { type: 'string' } }).wrapped).toBe(true);
    expect(geminiToolParameters({ type: 'object', properties: { a: { type: 'string' } } }).wrapped).toBe(false);
  });

  it('declares a tool that takes no parameters without either field', () => {
    expect(fieldsFor({ type: 'object', properties: {}, additionalProperties: false })).toEqual({});
    expect(fieldsFor(undefined)).toEqual({});
  });

  it('stays bounded for hostile schemas: as deep as a server message may nest, and 5,000 properties', () => {
    // 63 schema levels are 126 JSON levels, just inside what the host reads from a server (128).
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 63; level += 1) deep = { type: 'object', properties: { next: deep } };
    // Cut off by the normaliser with a note, which has no type: the schema keeps JSON Schema.
    expect(Object.keys(fieldsFor(deep))).toEqual(['parametersJsonSchema']);
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`p${index}`, { type: 'string' }])),
    };
    const fields = fieldsFor(wide);
    expect(Object.keys(fields.parameters?.properties as object)).toHaveLength(5_000);
  });

  it('for every corpus schema, sends `parameters` only where Gemini’s Schema type takes it, saying the same', () => {
    const corpus = loadCorpus();
    let asParameters = 0;
    for (const entry of corpus) {
      const { schema } = normaliseToolSchema(entry.inputSchema, 'gemini-parameters');
      const { fields } = geminiToolParameters(entry.inputSchema);
      if (!fields.parameters) continue;
      asParameters += 1;
      expect(() => checkGeminiParameters(fields.parameters, entry.file), entry.file).not.toThrow();
      expect(lowerCaseTypes(fields.parameters), entry.file).toEqual(schema);
    }
    // Both ways are exercised by real servers' shapes.
    expect(asParameters).toBeGreaterThan(0);
    expect(asParameters).toBeLessThan(corpus.length);
  });
});

describe('the mock’s reading of Gemini’s legacy `parameters`', () => {
  it.each([
    [
      { type: 'OBJECT', properties: { a: { type: 'STRING' } }, additionalProperties: false },
      /Unknown name "additionalProperties"/,
    ],
    [{ type: 'OBJECT', properties: { a: { type: ['STRING', 'NULL'] } } }, /Proto field is not repeating/],
    [{ type: 'OBJECT', properties: { a: { type: 'INTEGER', enum: [1, 2] } } }, /enum\[0\]' \(TYPE_STRING\)/],
    [{ type: 'OBJECT', properties: { a: { type: 'STRING', format: 'uri' } } }, /only 'enum' and 'date-time'/],
    [{ type: 'OBJECT', properties: { a: { type: 'OBJECT' } } }, /should be non-empty for OBJECT type/],
    [{ type: 'OBJECT', properties: { a: { type: 'ARRAY' } } }, /items: missing field/],
    [{ type: 'OBJECT', properties: { a: {} } }, /didn't specify the schema type field/],
    [
      { type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['b'] },
      /required\[0\]: property is not defined/,
    ],
    [{ type: 'object', properties: { a: { type: 'STRING' } } }, /v1beta.Type\), "object"/],
  ])('refuses %j', (schema, message) => {
    expect(() => checkGeminiParameters(schema, 'parameters')).toThrow(message);
  });
});
