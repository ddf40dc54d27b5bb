/**
 * The hand-written check of the common `tools/call` result. Whatever it accepts, the SDK's own result check must
 * accept with the same value; whatever it does not recognise goes to the SDK, which keeps its own answer and message.
 */
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { callResultSchema } from '../../src/connections/call-result-schema.js';
import { isPlainTextCallResult } from '../../src/connections/plain-call-result.js';

/** The SDK's verdict for a `tools/call` result on the legacy era (the codec of a client not yet connected). */
const codec = (
  new Client({ name: 'plain-call-result-test', version: '0.0.0' }) as unknown as {
    _wireCodec(): { validateResult(method: string, raw: unknown): { ok: boolean; value?: unknown } };
  }
)._wireCodec();
const sdkVerdict = (value: unknown) => codec.validateResult('tools/call', value);

const text = (value: string) => ({ type: 'text', text: value });

const RECOGNISED: unknown[] = [
  { content: [] },
  { content: [text('hi')] },
  { content: [text(''), text('two')], isError: false },
  { content: [text('failed')], isError: true },
  { content: [text('x'.repeat(100_000))] },
  { content: Array.from({ length: 10_000 }, (_, index) => text(String(index))) },
  JSON.parse('{"content":[{"type":"text","text":"from a line"}]}'),
  Object.assign(Object.create(null), { content: [text('no prototype')] }),
];

const deep = (levels: number): unknown => (levels === 0 ? 'leaf' : { nested: deep(levels - 1) });
const sparse: unknown[] = [text('a')];
sparse[3] = text('b');

/** Not recognised by hand: each goes to the SDK (some it accepts, some it refuses). */
const LEFT_TO_THE_SDK: unknown[] = [
  // Wrong types.
  null,
  undefined,
  'text',
  42,
  [],
  [text('an array, not a result')],
  { content: 'not a list' },
  { content: { 0: text('an object, not a list') } },
  { content: [text('flagged')], isError: 'yes' },
  { content: [text('flagged')], isError: 1 },
  { content: [text('flagged')], isError: null },
  { content: [text('flagged')], isError: undefined },
  { content: [{ type: 'text', text: 5 }] },
  { content: [{ type: 'text' }] },
  { content: [{ type: 'TEXT', text: 'x' }] },
  { content: [null] },
  { content: ['text'] },
  { content: [[text('nested list')]] },
  sparse,
  { content: sparse },
  // Not the plain shape, though possibly valid: other content kinds, extra keys, metadata.
  {},
  { isError: true },
  { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
  { content: [{ type: 'text', text: 'x', annotations: { priority: 0.5 } }] },
  { content: [{ type: 'text', text: 'x', annotations: { priority: 5 } }] },
  { content: [{ type: 'text', text: 'x', _meta: { a: 1 } }] },
  { content: [{ type: 'text', text: 'x', extra: deep(200) }] },
  { content: [text('x')], structuredContent: { count: 3 } },
  { content: [text('x')], structuredContent: 'not an object' },
  { content: [text('x')], _meta: { progressToken: 1 } },
  { content: [text('x')], _meta: 'not an object' },
  { content: [text('x')], extra: deep(200) },
  { content: [text('x')], task: { taskId: 't' } },
  JSON.parse('{"content":[],"__proto__":{"isError":"polluted"}}'),
  JSON.parse('{"content":[{"type":"text","text":"x","__proto__":{}}]}'),
  new (class Result {
    content = [text('a class instance')];
  })(),
];

describe('isPlainTextCallResult', () => {
  it('recognises text-only results, which the SDK accepts unchanged', () => {
    for (const value of RECOGNISED) {
      expect(isPlainTextCallResult(value), JSON.stringify(value)?.slice(0, 80)).toBe(true);
      const verdict = sdkVerdict(value);
      expect(verdict.ok).toBe(true);
      expect(verdict.value).toEqual({ ...(value as object) });
    }
  });

  it('leaves every other shape to the SDK: wrong types, extra keys, other content, deep or sparse values', () => {
    for (const value of LEFT_TO_THE_SDK) {
      expect(isPlainTextCallResult(value), JSON.stringify(value)?.slice(0, 80)).toBe(false);
    }
  });

  it("does not look at a list's own named properties, which JSON cannot carry and the SDK drops", () => {
    const value = { content: Object.assign([text('a')], { nested: deep(200) }) };
    expect(isPlainTextCallResult(value)).toBe(true);
    expect(sdkVerdict(value)).toEqual({ ok: true, value: { content: [text('a')] } });
  });

  it('takes a huge text-only content list in one pass, without recursion', () => {
    const huge = { content: Array.from({ length: 200_000 }, () => text('x')) };
    expect(isPlainTextCallResult(huge)).toBe(true);
    huge.content.push({ type: 'text', text: 7 } as never);
    expect(isPlainTextCallResult(huge)).toBe(false);
  });
});

describe('callResultSchema', () => {
  const schema = callResultSchema(new Client({ name: 'plain-call-result-test', version: '0.0.0' }));
  const validate = (value: unknown) =>
    schema?.['~standard'].validate(value) as { value?: unknown; issues?: { message: string }[] };

  it('accepts and refuses exactly what the SDK does, with its message', () => {
    expect(schema).toBeDefined();
    for (const value of [...RECOGNISED, ...LEFT_TO_THE_SDK]) {
      const verdict = sdkVerdict(value) as { ok: boolean; value?: unknown; message?: string };
      const ours = validate(value);
      const what = JSON.stringify(value)?.slice(0, 80);
      if (verdict.ok) expect(ours, what).toEqual({ value: verdict.value });
      else expect(ours, what).toEqual({ issues: [{ message: String(verdict.message) }] });
    }
  });

  it('refuses the malformed results a server may send', () => {
    for (const value of [
      { content: 'not a list' },
      { content: [text('x')], isError: 'yes' },
      { content: [{ type: 'text', text: 5 }] },
    ]) {
      expect(validate(value).issues?.[0]?.message, JSON.stringify(value)).toMatch(/Invalid|expected/i);
    }
  });
});
