import { describe, expect, it } from 'vitest';
import { type NormaliseTarget, normaliseToolSchema } from '../../../src/providers/schema/index.js';
import { estimateTextTokens } from '../../../src/providers/token-estimate/index.js';

/** The normalised schema of one property `p` (test convenience). */
function property(schema: Record<string, unknown>, target: NormaliseTarget): Record<string, unknown> {
  const normalised = normaliseToolSchema({ type: 'object', properties: { p: schema } }, target).schema;
  return (normalised.properties as Record<string, Record<string, unknown>>).p as Record<string, unknown>;
}

describe('numeric bounds', () => {
  it('gives an integer’s exclusive bounds as the inclusive ones next to them where only those are taken', () => {
    for (const target of ['gemini', 'gemini-parameters', 'openai-compatible'] as const) {
      expect(property({ type: 'integer', exclusiveMinimum: 0 }, target)).toEqual({ type: 'integer', minimum: 1 });
      expect(property({ type: 'integer', exclusiveMaximum: 2.5, exclusiveMinimum: -0.5 }, target)).toEqual({
        type: 'integer',
        minimum: 0,
        maximum: 2,
      });
      // Joined with an inclusive bound beside it: the tighter one holds.
      expect(
        property({ type: 'integer', exclusiveMinimum: 0, minimum: 5, maximum: 9, exclusiveMaximum: 4 }, target),
      ).toEqual({ type: 'integer', minimum: 5, maximum: 3 });
    }
  });

  it('keeps exclusive bounds where the target takes them, and describes them on a number', () => {
    expect(property({ type: 'integer', exclusiveMinimum: 0 }, 'openai-chat')).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
    });
    expect(property({ type: 'integer', exclusiveMinimum: 0 }, 'anthropic')).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
    });
    expect(property({ type: 'number', exclusiveMinimum: 0 }, 'gemini')).toEqual({
      type: 'number',
      description: 'Constraints: exclusiveMinimum: 0',
    });
  });

  it('reads draft-04’s boolean exclusive bounds as the numbers they make exclusive, as the 2020-12 form is read', () => {
    for (const target of ['gemini', 'gemini-parameters'] as const) {
      expect(property({ type: 'integer', minimum: 0, exclusiveMinimum: true }, target)).toEqual({
        type: 'integer',
        minimum: 1,
      });
      expect(property({ type: 'integer', maximum: 10, exclusiveMaximum: true }, target)).toEqual({
        type: 'integer',
        maximum: 9,
      });
      expect(property({ type: 'number', minimum: 0, exclusiveMinimum: true }, target)).toEqual(
        property({ type: 'number', exclusiveMinimum: 0 }, target),
      );
      // `false` is draft-04's default: the bound beside it is inclusive.
      expect(property({ type: 'number', minimum: 0, exclusiveMinimum: false }, target)).toEqual({
        type: 'number',
        minimum: 0,
      });
    }
    // A target that takes the exclusive keywords gets them in the form its dialect, 2020-12, gives them.
    expect(property({ type: 'number', minimum: 0, exclusiveMinimum: true }, 'anthropic')).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
    });
  });

  it('reads draft-04’s boolean exclusive bounds in each allOf part before the parts are merged', () => {
    // Above 0, and 5 or more: 5 is allowed. Merged first, `minimum: 5` would stand beside the other part's `true`.
    const parts = { type: 'number', allOf: [{ minimum: 0, exclusiveMinimum: true }, { minimum: 5 }] };
    for (const target of ['openai-chat', 'gemini'] as const) {
      expect(property(parts, target)).toEqual(property({ type: 'number', exclusiveMinimum: 0, minimum: 5 }, target));
    }
  });

  it('leaves out a draft-04 boolean exclusive bound with no bound beside it, which bounds nothing', () => {
    for (const target of ['anthropic', 'openai-chat', 'gemini'] as const) {
      expect(property({ type: 'number', exclusiveMinimum: true, exclusiveMaximum: false }, target)).toEqual({
        type: 'number',
      });
    }
  });

  it('leaves out zod’s safe-integer bounds for Gemini only', () => {
    const zodInteger = { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    expect(property(zodInteger, 'gemini')).toEqual({ type: 'integer' });
    expect(property(zodInteger, 'gemini-parameters')).toEqual({ type: 'integer' });
    expect(property({ type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER }, 'gemini')).toEqual({
      type: 'integer',
      minimum: 1,
    });
    // Any other bound says something and stays.
    expect(property({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER - 1 }, 'gemini')).toEqual({
      type: 'integer',
      maximum: Number.MAX_SAFE_INTEGER - 1,
    });
    expect(property(zodInteger, 'openai-chat')).toEqual(zodInteger);
  });
});

describe('described defaults', () => {
  it('writes `Default value`, without a colon or a closing full stop, a text default unquoted where only text is allowed', () => {
    expect(property({ type: 'number', description: 'Steps', default: 5 }, 'gemini').description).toBe(
      'Steps\nDefault 5',
    );
    expect(property({ type: 'string', default: 'README.md.gz' }, 'openai-chat').description).toBe(
      'Default README.md.gz',
    );
    expect(property({ type: 'array', items: { type: 'string' }, default: [] }, 'gemini').description).toBe(
      'Default []',
    );
  });

  it('spends on a described default no more tokens than `default` as a keyword would, where the property has a description', () => {
    const tokens = (schema: unknown) => estimateTextTokens(JSON.stringify(schema));
    for (const value of [5, false, 'README.md.gz']) {
      const listed = { type: typeof value, description: 'Steps', default: value };
      expect(tokens(property(listed, 'gemini'))).toBeLessThanOrEqual(tokens(listed));
    }
  });

  it('quotes a text default that could be read another way', () => {
    const described = (schema: Record<string, unknown>) => property(schema, 'openai-chat').description;
    // Another type is allowed: "true" and true would read alike.
    expect(described({ type: ['string', 'boolean'], default: 'true' })).toBe('Default "true"');
    expect(described({ enum: ['a', 'b'], default: 'a' })).toBe('Default "a"');
    // Empty, spaces at an end, or a line break: the quotes show where the text starts and stops.
    expect(described({ type: 'string', default: '' })).toBe('Default ""');
    expect(described({ type: 'string', default: ' padded ' })).toBe('Default " padded "');
    expect(described({ type: 'string', default: 'two\nlines' })).toBe('Default "two\\nlines"');
  });

  it('lists examples quoted, and OpenAPI’s example, without a colon or a closing full stop', () => {
    expect(property({ type: 'string', examples: ['a, b', 'c'] }, 'openai-chat').description).toBe(
      'Examples "a, b", "c"',
    );
    expect(property({ type: 'integer', example: 42 }, 'anthropic').description).toBe('Example 42');
  });
});
