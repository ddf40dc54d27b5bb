/**
 * `host.callTool` checks a result's `structuredContent` against the tool's `outputSchema` on the data as the server
 * sent it, against a real stdio server: a `__proto__` key is judged as the key it is (required, forbidden, or not
 * among the allowed ones), a key `~__proto__` as itself, and an object without `__proto__` as lacking it; the key
 * reaches the caller as a data key, never as a prototype. Rules keyed by `__proto__` (a property, a pattern, a
 * dependency) are checked as the server wrote them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import type { ToolResult } from '../../src/providers/types.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';

let host: Host;
const diagnostics: string[] = [];

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([stdioServer('media', [fixtureServer('echo-content.mjs')], { trust: 'trusted' })]),
    trustStore: TrustStore.inMemory(),
    onDiagnostic: (line) => diagnostics.push(line),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

/** `tool` answering with `structured` (JSON text: in a literal `__proto__` would set the prototype) as its structuredContent. */
function answerWith(tool: string, structured: string) {
  const structuredContent = JSON.parse(structured) as Record<string, unknown>;
  return host.callTool(`media__${tool}`, { content: [{ type: 'text', text: 'done' }], structuredContent });
}

function text(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

describe("the check of a call's structuredContent against its tool's outputSchema", () => {
  it('finds a required __proto__ key where the server sent one, and only there', async () => {
    const kept = await answerWith('requires_proto', '{"__proto__":{"a":1}}');
    expect(kept.outcome).toBe('ok');
    const structured = (kept.rawResult as { structuredContent: Record<string, unknown> }).structuredContent;
    expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(structured, '__proto__')?.value).toEqual({ a: 1 });
    expect(structured.a).toBeUndefined();

    for (const without of ['{"~__proto__":{"a":1}}', '{}']) {
      const refused = await answerWith('requires_proto', without);
      expect(refused.outcome, without).toBe('error');
      expect(text(refused.result)).toContain("data must have required property '__proto__'");
    }
  });

  it('refuses a forbidden __proto__ key where the server sent one, and only there', async () => {
    const refused = await answerWith('forbids_proto', '{"__proto__":{"a":1}}');
    expect(refused.outcome).toBe('error');
    expect(text(refused.result)).toContain("the server's result does not match the tool's outputSchema: ");
    for (const without of ['{"~__proto__":{"a":1}}', '{}']) {
      expect((await answerWith('forbids_proto', without)).outcome, without).toBe('ok');
    }
  });

  it('takes a key ~__proto__ as itself and __proto__ as a key beyond the allowed ones', async () => {
    const kept = await answerWith('closed_proto', '{"~__proto__":"as sent"}');
    expect(kept.outcome).toBe('ok');
    expect(JSON.stringify((kept.rawResult as { structuredContent: unknown }).structuredContent)).toBe(
      '{"~__proto__":"as sent"}',
    );
    const refused = await answerWith('closed_proto', '{"__proto__":"x"}');
    expect(refused.outcome).toBe('error');
    expect(text(refused.result)).toContain('data must NOT have additional properties');
  });

  it('checks the rules of the pattern __proto__, and leaves the names it matches out of additionalProperties', async () => {
    const kept = await answerWith('proto_pattern', '{"__proto__":"x","my__proto__key":"y"}');
    expect(kept.outcome).toBe('ok');
    const notText = await answerWith('proto_pattern', '{"my__proto__key":1}');
    expect(notText.outcome).toBe('error');
    expect(text(notText.result)).toContain('data/my__proto__key must be string');
    const other = await answerWith('proto_pattern', '{"other":"x"}');
    expect(other.outcome).toBe('error');
    expect(text(other.result)).toContain('data must NOT have additional properties');
  });

  it('checks what a __proto__ key requires under dependentSchemas and dependentRequired, and its name', async () => {
    const alone = await answerWith('proto_dependent', '{"__proto__":1}');
    expect(alone.outcome).toBe('error');
    expect(text(alone.result)).toContain("data must have required property 'a'");
    expect(text(alone.result)).toContain('data must have property b when property __proto__ is present');
    expect((await answerWith('proto_dependent', '{"__proto__":1,"a":1,"b":1}')).outcome).toBe('ok');
    expect((await answerWith('proto_dependent', '{"a":1}')).outcome).toBe('ok');
    // `__proto__` is 9 characters: a longer name is refused by `propertyNames`, that one is not.
    const longName = await answerWith('proto_dependent', '{"__proto__x":1}');
    expect(longName.outcome).toBe('error');
    expect(text(longName.result)).toContain('property name must be valid');
  });

  it('runs a pattern the server wrote in linear time, and skips one it cannot run, saying so', async () => {
    // 50 characters: backtracking, `^(a+)+$` would take longer than the test may.
    const refused = await answerWith('backtracking_pattern', JSON.stringify({ word: `${'a'.repeat(50)}!` }));
    expect(refused.outcome).toBe('error');
    expect(text(refused.result)).toContain('data/word must match pattern');
    expect((await answerWith('backtracking_pattern', JSON.stringify({ word: 'a'.repeat(50) }))).outcome).toBe('ok');

    // A pattern it cannot run is not checked (and said so once); the rest of the schema still is.
    expect((await answerWith('lookahead_pattern', JSON.stringify({ word: 'bbb' }))).outcome).toBe('ok');
    const notString = await answerWith('lookahead_pattern', JSON.stringify({ word: 5 }));
    expect(notString.outcome).toBe('error');
    expect(text(notString.result)).toContain('data/word must be string');
    expect(diagnostics.filter((line) => line.includes('^(?=a)a+$'))).toEqual([
      expect.stringMatching(/^server "media" has an outputSchema pattern that cannot run in linear time .*not checked/),
    ]);
  });

  it("checks draft-04's boolean exclusive bounds, with the dialect named and not", async () => {
    for (const tool of ['draft04_bounds', 'named_draft04_bounds']) {
      const onBound = await answerWith(tool, '{"above":0,"below":1}');
      expect(onBound.outcome, tool).toBe('error');
      expect(text(onBound.result)).toContain('data/above must be > 0');
      expect(text(onBound.result)).toContain('data/below must be < 1');
      expect((await answerWith(tool, '{"above":0.001,"below":0.999}')).outcome, tool).toBe('ok');
    }
    expect(diagnostics.filter((line) => line.includes('cannot be compiled') && line.includes('exclusive'))).toEqual([]);
  });

  it('leaves the calls of a tool whose outputSchema cannot be compiled unchecked, saying so once', async () => {
    for (const structured of ['{"word":"any"}', '{"word":5}']) {
      const answered = await answerWith('broken_output_schema', structured);
      expect(answered.outcome, structured).toBe('ok');
    }
    expect(diagnostics.filter((line) => line.includes('cannot be compiled'))).toEqual([
      expect.stringMatching(/^server "media" lists an outputSchema that cannot be compiled \(.*missing.*\)/),
    ]);
  });

  it('says what it could not check of a hostile pattern bounded and with its controls as escapes', async () => {
    expect((await answerWith('hostile_pattern', '{"word":"b"}')).outcome).toBe('ok');
    const said = diagnostics.filter((line) => line.includes('owned') && line.includes('linear time'));
    expect(said).toHaveLength(1);
    expect(said[0]!.length).toBeLessThan(1_000);
    expect(said[0]).toContain('\\x1b]0;owned\\x07\\x9b31m\\u202e(?=a)');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the diagnostic.
    expect(said[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
