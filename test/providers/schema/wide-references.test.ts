/**
 * A server's schema of modest size whose `$defs` name one another: a chain of 100,000 definitions, a definition
 * named twice at each of 40 levels (2^40 copies if inlined), a cycle. Normalising must end quickly with a bounded
 * result or refuse the schema with an error naming the tool and the bound it passed, for every provider, instead of
 * overflowing the stack, taking quadratic time or copying definitions without end.
 */
import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.js';
import { toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.js';
import { toOpenAiChatRequest } from '../../../src/providers/openai-chat/to-openai-chat-request.js';
import { toOpenAiResponsesRequest } from '../../../src/providers/openai-responses/to-openai-responses-request.js';
import {
  checkProviderSchema,
  MAX_DESCRIBED_VALUE_LENGTH,
  MAX_REFERENCE_CHAIN,
  MAX_SCHEMA_COMPARISONS,
  MAX_SCHEMA_EXPANSION_STEPS,
  normaliseToolSchema,
  SCHEMA_TARGETS,
  SchemaExpansionError,
  type SchemaTarget,
  schemaExpansionProblem,
} from '../../../src/providers/schema/index.js';
import { estimateToolTokens } from '../../../src/providers/token-estimate/o200k-token-estimate.js';
import type { ModelRequest } from '../../../src/providers/types.js';

/** `$defs` `a0` … `a{count - 1}`, each but the last holding `link(next)`, built with a loop. */
function definitionsSchema(count: number, link: (next: string) => unknown): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    definitions[`a${index}`] = index === count - 1 ? { type: 'string' } : link(`#/$defs/a${index + 1}`);
  }
  return { type: 'object', properties: { value: { $ref: '#/$defs/a0' } }, $defs: definitions };
}

const refChain = (count: number) => definitionsSchema(count, (next) => ({ $ref: next }));
const allOfChain = (count: number) => definitionsSchema(count, (next) => ({ allOf: [{ $ref: next }] }));
const propertyFanOut = definitionsSchema(40, (next) => ({
  type: 'object',
  properties: { left: { $ref: next, description: 'left' }, right: { $ref: next, description: 'right' } },
}));
const allOfFanOut = definitionsSchema(40, (next) => ({ allOf: [{ $ref: next }, { $ref: next, title: 'again' }] }));
const cycle = {
  type: 'object',
  properties: { value: { $ref: '#/$defs/even' }, whole: { $ref: '#' } },
  $defs: {
    even: { type: 'object', properties: { next: { $ref: '#/$defs/odd' } } },
    odd: { allOf: [{ $ref: '#/$defs/even' }, { description: 'odd' }] },
  },
};

const STEPS = `expands past ${MAX_SCHEMA_EXPANSION_STEPS} steps while its $ref and allOf are resolved`;
const CHAIN = `chains more than ${MAX_REFERENCE_CHAIN} $ref or allOf references one inside another`;

/** The error normalising `schema` for `target` throws, or undefined with the result's JSON size. */
function outcome(schema: unknown, target: SchemaTarget): { error?: unknown; size?: number } {
  try {
    const { schema: normalised } = normaliseToolSchema(schema, target, 'wide_tool');
    expect(checkProviderSchema(normalised, target)).toEqual([]);
    return { size: JSON.stringify(normalised).length };
  } catch (error) {
    return { error };
  }
}

function expectRefused(schema: unknown, target: SchemaTarget, exceeded: string): void {
  const { error } = outcome(schema, target);
  expect(error).toBeInstanceOf(SchemaExpansionError);
  expect((error as Error).message).toBe(`the input schema of tool "wide_tool" ${exceeded}`);
}

describe('a chain of 100,000 definitions, each a $ref to the next', () => {
  const schema = refChain(100_000);

  it('is refused when references are inlined: the chain is longer than the bound', () => {
    expectRefused(schema, 'openai-compatible', CHAIN);
  });

  it.each(SCHEMA_TARGETS.filter((target) => target !== 'openai-compatible'))(
    'is refused for %s, which keeps references: 100,000 definitions pass the step bound',
    (target) => expectRefused(schema, target, STEPS),
  );

  it('as allOf, is refused where allOf is merged, and kept in bounds where it is not', () => {
    const chain = allOfChain(100_000);
    expectRefused(chain, 'openai-compatible', CHAIN);
    expectRefused(chain, 'gemini', CHAIN);
    expectRefused(chain, 'anthropic', STEPS);
  });

  it(`shorter than ${MAX_REFERENCE_CHAIN} is offered to every provider`, () => {
    for (const target of SCHEMA_TARGETS) {
      expect(outcome(refChain(MAX_REFERENCE_CHAIN - 4), target).error, target).toBeUndefined();
      expect(outcome(allOfChain(MAX_REFERENCE_CHAIN - 4), target).error, target).toBeUndefined();
    }
  });
});

describe('a definition named twice at each of 40 levels', () => {
  it.each(SCHEMA_TARGETS)('is refused or stays small for %s', (target) => {
    for (const schema of [propertyFanOut, allOfFanOut]) {
      const { error, size } = outcome(schema, target);
      if (error === undefined) expect(size).toBeLessThan(100_000);
      else expect((error as Error).message).toBe(`the input schema of tool "wide_tool" ${STEPS}`);
    }
  });

  it('is refused where it would be copied: inlined references, merged allOf', () => {
    expectRefused(propertyFanOut, 'openai-compatible', STEPS);
    expectRefused(allOfFanOut, 'openai-chat', STEPS);
  });
});

describe('definitions that name each other in a cycle', () => {
  it.each(SCHEMA_TARGETS)('are offered to %s, bounded', (target) => {
    const { error, size } = outcome(cycle, target);
    expect(error).toBeUndefined();
    expect(size).toBeLessThan(20_000);
  });

  it('pass the check made when a tool is listed', () => {
    expect(schemaExpansionProblem(cycle)).toBeUndefined();
  });
});

describe('allOf parts whose merging compares large values', () => {
  const COMPARISONS = `takes more than ${MAX_SCHEMA_COMPARISONS} comparisons while its allOf is merged`;
  const values = (prefix: string) => Array.from({ length: 50_000 }, (_, index) => `${prefix}${index}`);
  const disjointEnums = {
    type: 'object',
    properties: { value: { allOf: [{ enum: values('a') }, { enum: values('b') }] } },
  };

  it('two enums of 50,000 values each are refused where allOf is merged, and the listing check says so', () => {
    expectRefused(disjointEnums, 'openai-chat', COMPARISONS);
    expect(schemaExpansionProblem(disjointEnums)).toBe(`its input schema ${COMPARISONS}`);
  });

  it('a large conflicting value merged from many parts is described in bounded text', () => {
    const large = { const: values('c') };
    const parts = Array.from({ length: 50 }, (_, index) => ({ $ref: `#/$defs/c${index}` }));
    const definitions = Object.fromEntries(parts.map((_, index) => [`c${index}`, { const: [index, ...large.const] }]));
    const schema = { type: 'object', properties: { value: { allOf: parts } }, $defs: definitions };
    const { schema: normalised } = normaliseToolSchema(schema, 'gemini', 'wide_tool');
    const description = (normalised.properties as Record<string, { description: string }>).value?.description ?? '';
    const lines = description.split('; ');
    expect(lines.length).toBeGreaterThanOrEqual(49);
    for (const line of lines) expect(line.length).toBeLessThan(MAX_DESCRIBED_VALUE_LENGTH + 40);
  });
});

describe('the check made when a tool is listed', () => {
  it('says which bound a schema passed, or nothing for a schema within them', () => {
    expect(schemaExpansionProblem(refChain(100_000))).toBe(`its input schema ${CHAIN}`);
    expect(schemaExpansionProblem(propertyFanOut)).toBe(`its input schema ${STEPS}`);
    expect(schemaExpansionProblem(allOfFanOut)).toBe(`its input schema ${STEPS}`);
    expect(schemaExpansionProblem(refChain(10))).toBeUndefined();
    expect(schemaExpansionProblem({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
  });
});

describe('every adapter and the token estimate', () => {
  const request: ModelRequest = {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: [{ name: 'wide_tool', description: 'Names its definitions twice.', inputSchema: allOfFanOut }],
  };
  const translations: [string, () => unknown][] = [
    ['anthropic', () => toAnthropicRequest(request, { model: 'claude-test', maxOutputTokens: 1024, stream: false })],
    ['openai-chat', () => toOpenAiChatRequest(request, { model: 'gpt-test', local: false, strictTools: true })],
    ['openai-compatible', () => toOpenAiChatRequest(request, { model: 'local', local: true, strictTools: false })],
    ['openai-responses', () => toOpenAiResponsesRequest(request, { model: 'gpt-test' })],
    ['gemini', () => toGeminiRequest(request)],
    ['token estimate', () => estimateToolTokens(request.tools![0]!, 'gemini')],
  ];

  it.each(translations)('%s: refuses the tool naming it, or sends a bounded schema', (_name, translate) => {
    let sent: unknown;
    try {
      sent = translate();
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaExpansionError);
      expect((error as Error).message).toBe(`the input schema of tool "wide_tool" ${STEPS}`);
      return;
    }
    expect(JSON.stringify(sent).length).toBeLessThan(100_000);
  });
});
