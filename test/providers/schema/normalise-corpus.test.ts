import { describe, expect, it } from 'vitest';
import {
  checkProviderSchema,
  normaliseToolSchema,
  SCHEMA_TARGETS,
  unwrapArguments,
  WRAPPED_ARGUMENT_NAME,
} from '../../../src/providers/schema/index.js';
import { loadCorpus, validate } from './corpus.js';

const corpus = loadCorpus();

/** Keywords whose value is a map of names (kept in order) or a literal value (left alone). */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const LITERALS = new Set(['enum', 'const', 'default', 'examples', 'example', 'required', 'dependentRequired']);

/** The same schema with every keyword map in reverse order: a server may write keywords in any order. */
function reverseKeywords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(reverseKeywords);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .reverse()
      .map(([keyword, value]) => {
        if (LITERALS.has(keyword)) return [keyword, value];
        if (NAME_MAPS.has(keyword) && typeof value === 'object' && value !== null) {
          return [
            keyword,
            Object.fromEntries(Object.entries(value).map(([name, item]) => [name, reverseKeywords(item)])),
          ];
        }
        return [keyword, reverseKeywords(value)];
      }),
  );
}

describe('the schema corpus', () => {
  it('holds at least 25 schemas, each with an example that is valid for it', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(25);
    for (const entry of corpus) {
      expect(validate(entry.inputSchema, entry.example), entry.file).toEqual({ valid: true, errorMessage: undefined });
    }
  });
});

describe.each(SCHEMA_TARGETS)('normaliseToolSchema for %s', (target) => {
  it.each(corpus.map((entry) => [entry.file, entry] as const))('%s passes the provider checks', (_file, entry) => {
    const { schema } = normaliseToolSchema(entry.inputSchema, target);
    expect(checkProviderSchema(schema, target)).toEqual([]);
  });

  it.each(corpus.map((entry) => [entry.file, entry] as const))(
    '%s accepts the example and unwraps it unchanged',
    (_file, entry) => {
      const { schema, wrapped } = normaliseToolSchema(entry.inputSchema, target);
      const modelArguments = (wrapped ? { [WRAPPED_ARGUMENT_NAME]: entry.example } : entry.example) as Record<
        string,
        unknown
      >;
      expect(validate(schema, modelArguments)).toEqual({ valid: true, errorMessage: undefined });
      expect(unwrapArguments(structuredClone(modelArguments), wrapped)).toEqual(entry.example);
    },
  );

  it('never mutates its input and gives the same bytes for the same schema in any key order', () => {
    for (const entry of corpus) {
      const before = JSON.stringify(entry.inputSchema);
      const first = normaliseToolSchema(entry.inputSchema, target);
      expect(JSON.stringify(entry.inputSchema)).toBe(before);
      const again = normaliseToolSchema(reverseKeywords(entry.inputSchema), target);
      expect(JSON.stringify(again.schema), entry.file).toBe(JSON.stringify(first.schema));
    }
  });
});

describe('wrapping', () => {
  it('wraps exactly the roots that are not plain objects', () => {
    const wrapped = corpus
      .filter((entry) => normaliseToolSchema(entry.inputSchema, 'anthropic').wrapped)
      .map((entry) => entry.file);
    expect(wrapped).toEqual([
      'root-any-of-objects.json',
      'root-array.json',
      'root-one-of-untyped.json',
      'root-string.json',
    ]);
  });
});
