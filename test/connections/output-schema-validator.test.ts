/**
 * The host's check of `structuredContent` against a server's `outputSchema`: what it says about a mismatch is bounded
 * and escaped, and a server's unknown format name never reaches the console.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutputSchemaValidator } from '../../src/connections/output-schema-validator.js';
import { loadJsonSchemaEngines } from '../../src/json/json-schema-engines.js';

beforeAll(async () => {
  await loadJsonSchemaEngines();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the outputSchema check', () => {
  it('says a mismatch of many values in bounded words, with the escape of a key the server named', () => {
    const diagnostics: string[] = [];
    const validator = createOutputSchemaValidator((message) => diagnostics.push(message));
    const hostileKey = 'k\u001b]0;x\u0007k';
    const check = validator.getValidator({
      type: 'object',
      properties: { [hostileKey]: { type: 'array', items: { type: 'integer' } } },
    });
    const outcome = check({ [hostileKey]: Array.from({ length: 10_000 }, () => 'not a number') });
    expect(outcome.valid).toBe(false);
    expect(outcome.errorMessage?.length).toBeLessThanOrEqual(400);
    expect(outcome.errorMessage).toContain('must be integer');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    expect(outcome.errorMessage).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(diagnostics).toEqual([]);
  });

  it('prints nothing to the console for a format it does not know', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const validator = createOutputSchemaValidator(() => undefined);
    const check = validator.getValidator({
      type: 'object',
      properties: { value: { type: 'string', format: 'x\u001b[31mRED' } },
    });
    expect(check({ value: 'anything' }).valid).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});
