import { describe, expect, it } from 'vitest';
import {
  normaliseToolSchema,
  RECURSION_EXPANSION_LIMIT,
  unwrapArguments,
} from '../../../src/providers/schema/index.js';

/** Follows `properties` names into a schema (test convenience). */
function at(schema: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  let node = schema;
  for (const name of names) node = (node.properties as Record<string, Record<string, unknown>>)[name] as typeof node;
  return node;
}

describe('root rules', () => {
  it('gives a missing or empty root type object and properties', () => {
    for (const input of [{}, { type: 'object' }, true, undefined]) {
      expect(normaliseToolSchema(input, 'openai-chat').schema).toEqual({ type: 'object', properties: {} });
    }
  });

  it('strips $schema and $id everywhere', () => {
    const { schema } = normaliseToolSchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:tool',
        type: 'object',
        properties: { a: { $id: 'urn:a', type: 'string' } },
      },
      'anthropic',
    );
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('treats a schema that is not JSON Schema as a tool without parameters, and says so', () => {
    const result = normaliseToolSchema('not a schema', 'gemini');
    expect(result.schema).toEqual({ type: 'object', properties: {} });
    expect(result.notes.join('\n')).toMatch(/not a JSON Schema object/);
  });

  it('wraps a non-object root and unwraps the model arguments back to the declared shape', () => {
    const result = normaliseToolSchema({ type: 'array', items: { type: 'integer' } }, 'anthropic');
    expect(result.wrapped).toBe(true);
    expect(result.schema).toEqual({
      type: 'object',
      properties: { value: { type: 'array', items: { type: 'integer' } } },
      required: ['value'],
    });
    expect(unwrapArguments({ value: [1, 2] }, true)).toEqual([1, 2]);
    expect(unwrapArguments({ a: 1 }, false)).toEqual({ a: 1 });
  });

  it('keeps $defs at the wrapper root so wrapped references still resolve', () => {
    const { schema, wrapped } = normaliseToolSchema(
      { anyOf: [{ $ref: '#/$defs/A' }, { type: 'string' }], $defs: { A: { type: 'object', properties: {} } } },
      'openai-responses',
    );
    expect(wrapped).toBe(true);
    expect(schema.$defs).toEqual({ A: { type: 'object', properties: {} } });
    expect(at(schema, 'value')).toEqual({ anyOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] });
  });

  it('describes a root anyOf that only lists required groups instead of wrapping it', () => {
    const result = normaliseToolSchema(
      {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' } },
        oneOf: [{ required: ['id'] }, { required: ['name'] }],
      },
      'anthropic',
    );
    expect(result.wrapped).toBe(false);
    expect(result.schema.oneOf).toBeUndefined();
    expect(result.schema.description).toBe('Give exactly one of these groups of properties: id; name.');
  });

  it('inlines a root $ref and merges a root allOf for every target, anthropic included', () => {
    const { schema } = normaliseToolSchema(
      {
        $ref: '#/$defs/Args',
        $defs: {
          Base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          Args: { allOf: [{ $ref: '#/$defs/Base' }, { properties: { n: { type: 'integer' } }, required: ['n'] }] },
        },
      },
      'anthropic',
    );
    expect(schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, n: { type: 'integer' } },
      required: ['id', 'n'],
    });
  });
});

describe('references', () => {
  const withReferences = {
    type: 'object',
    properties: { home: { $ref: '#/definitions/Address' }, work: { $ref: '#/definitions/Address' } },
    definitions: { Address: { type: 'object', properties: { city: { type: 'string' } } } },
  };

  it('keeps references (moved into root $defs) for anthropic, openai and gemini', () => {
    for (const target of ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const) {
      const { schema } = normaliseToolSchema(withReferences, target);
      expect(at(schema, 'home')).toEqual({ $ref: '#/$defs/Address' });
      expect(schema.$defs).toEqual({ Address: { type: 'object', properties: { city: { type: 'string' } } } });
    }
  });

  it('inlines references for openai-compatible', () => {
    const { schema } = normaliseToolSchema(withReferences, 'openai-compatible');
    expect(schema.$defs).toBeUndefined();
    expect(at(schema, 'work')).toEqual({ type: 'object', properties: { city: { type: 'string' } } });
  });

  it('expands a $ref that has sibling keywords, so no $ref carries siblings', () => {
    const { schema } = normaliseToolSchema(
      {
        type: 'object',
        properties: { home: { $ref: '#/$defs/Address', description: 'Where you live' } },
        $defs: { Address: { type: 'object', description: 'An address', properties: {} } },
      },
      'openai-chat',
    );
    expect(at(schema, 'home')).toEqual({ type: 'object', description: 'Where you live', properties: {} });
  });

  it('bounds recursion when inlining, with a note in the description', () => {
    const { schema, notes } = normaliseToolSchema(
      {
        type: 'object',
        properties: { tree: { $ref: '#/$defs/Node' } },
        $defs: { Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      },
      'openai-compatible',
    );
    let node = at(schema, 'tree');
    for (let level = 1; level < RECURSION_EXPANSION_LIMIT; level += 1) node = at(node, 'kids').items as typeof node;
    const cut = at(node, 'kids').items as Record<string, unknown>;
    expect(cut.type).toBe('object');
    expect(cut.properties).toBeUndefined();
    expect(cut.description).toMatch(/"Node" nests again here; it is not described beyond 3 levels/);
    expect(notes.some((note) => note.includes('recursive "Node" cut off'))).toBe(true);
  });

  it('describes a reference it cannot resolve (remote) instead of sending it', () => {
    const { schema, notes } = normaliseToolSchema(
      { type: 'object', properties: { geo: { $ref: 'https://example.com/geo.json', description: 'A place' } } },
      'anthropic',
    );
    expect(at(schema, 'geo')).toEqual({
      description: 'A place\nConstraints: defined at: https://example.com/geo.json',
    });
    expect(notes.join('\n')).toMatch(/could not resolve \$ref/);
  });
});

describe('composition and values', () => {
  const composed = {
    type: 'object',
    properties: {
      item: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer', minimum: 0 } }, required: ['b'] },
        ],
      },
      pick: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      fixed: { const: 'v1' },
    },
  };

  it('merges allOf, turns oneOf into anyOf and const into enum for gemini', () => {
    const { schema } = normaliseToolSchema(composed, 'gemini');
    expect(at(schema, 'item')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer', minimum: 0 } },
      required: ['a', 'b'],
    });
    expect(at(schema, 'pick')).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(at(schema, 'fixed')).toEqual({ type: 'string', enum: ['v1'] });
  });

  it('keeps nested allOf, oneOf and const for anthropic', () => {
    const { schema } = normaliseToolSchema(composed, 'anthropic');
    expect(Array.isArray(at(schema, 'item').allOf)).toBe(true);
    expect(at(schema, 'pick')).toEqual({ oneOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(at(schema, 'fixed')).toEqual({ const: 'v1' });
  });

  it('describes allOf parts that contradict instead of dropping them', () => {
    const { schema } = normaliseToolSchema(
      { type: 'object', properties: { x: { allOf: [{ type: 'string' }, { type: 'integer' }] } } },
      'openai-chat',
    );
    expect(at(schema, 'x')).toEqual({ type: 'string', description: 'Constraints: allOf type: integer' });
  });

  it('turns OpenAPI nullable into JSON Schema for every target', () => {
    const input = {
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true },
        b: { type: 'string', enum: ['x', null], nullable: true },
        c: { $ref: '#/$defs/C' },
      },
      $defs: { C: { description: 'see', properties: { d: { type: 'number' } }, nullable: true } },
    };
    const { schema } = normaliseToolSchema(input, 'openai-chat');
    expect(at(schema, 'a')).toEqual({ type: ['string', 'null'] });
    expect(at(schema, 'b')).toEqual({ type: ['string', 'null'], enum: ['x', null] });
    expect((schema.$defs as Record<string, unknown>).C).toEqual({
      description: 'see',
      anyOf: [{ type: 'object', properties: { d: { type: 'number' } } }, { type: 'null' }],
    });
  });

  it('moves keywords a target rejects into the description under "Constraints:"', () => {
    const input = {
      type: 'object',
      properties: {
        site: { type: 'string', format: 'uri', description: 'Home page' },
        tags: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      },
    };
    const openai = normaliseToolSchema(input, 'openai-chat').schema;
    expect(at(openai, 'site')).toEqual({ type: 'string', description: 'Home page\nConstraints: format: uri' });
    expect(at(openai, 'tags')).toEqual({
      type: 'object',
      description: 'Constraints: patternProperties: {"^x-":{"type":"string"}}',
    });
    // Anthropic documents `uri` as a format it accepts.
    expect(at(normaliseToolSchema(input, 'anthropic').schema, 'site')).toEqual({
      type: 'string',
      format: 'uri',
      description: 'Home page',
    });
  });

  it('widens additionalProperties when patternProperties is moved, so valid keys stay valid', () => {
    const { schema } = normaliseToolSchema(
      {
        type: 'object',
        properties: {
          labels: { type: 'object', patternProperties: { '^a': { type: 'string' } }, additionalProperties: false },
        },
      },
      'gemini',
    );
    expect(at(schema, 'labels').additionalProperties).toEqual({ type: 'string' });
  });

  it('keeps maps (additionalProperties with a schema) for every target', () => {
    const input = { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } };
    for (const target of ['anthropic', 'openai-chat', 'gemini', 'openai-compatible'] as const) {
      expect(at(normaliseToolSchema(input, target).schema, 'env')).toEqual({
        type: 'object',
        additionalProperties: { type: 'string' },
      });
    }
  });

  it('drops required names that are not properties, describing them', () => {
    const { schema } = normaliseToolSchema(
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'ghost'] },
      'gemini',
    );
    expect(schema.required).toEqual(['a']);
    expect(schema.description).toBe('Constraints: required keys: ["ghost"]');
  });

  it('writes keywords in one canonical order', () => {
    const { schema } = normaliseToolSchema(
      { required: ['q'], properties: { q: { maxLength: 5, description: 'query', type: 'string' } }, type: 'object' },
      'anthropic',
    );
    expect(JSON.stringify(schema)).toBe(
      '{"type":"object","properties":{"q":{"type":"string","description":"query","maxLength":5}},"required":["q"]}',
    );
  });
});
