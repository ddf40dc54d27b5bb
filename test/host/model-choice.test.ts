import { describe, expect, it } from 'vitest';
import { chooseModel, ModelChoiceError, parseModelSpec } from '../../src/host/model-choice.js';
import { stripControlCodes } from '../../src/text/strip-control-codes.js';

describe('parseModelSpec', () => {
  it('quotes at most 200 characters of a spec it refuses, whatever its length', () => {
    for (const spec of [
      'x'.repeat(100_000),
      `${'p'.repeat(100_000)}:model`,
      `anthropic${'\u001b[2J'.repeat(1)}${'y'.repeat(100_000)}:`,
    ]) {
      let message = '';
      try {
        parseModelSpec(spec);
      } catch (error) {
        expect(error).toBeInstanceOf(ModelChoiceError);
        message = (error as Error).message;
      }
      expect(message).toContain('…"');
      expect(message.length).toBeLessThan(1_000);
    }
  });

  it('quotes a spec by how long it shows, on one line, so the message still says what is wrong', () => {
    // Each zero-width space is shown as a six-character escape; a line break would start a line of its own.
    let message = '';
    try {
      parseModelSpec(`${'\u200b'.repeat(150)}\nmcp-host ok`);
    } catch (error) {
      message = stripControlCodes((error as Error).message);
    }
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^model "(\\u200b)+…" has no provider: write it as provider:model/);
    expect(message.length).toBeLessThan(500);
  });

  it('splits provider and model', () => {
    expect(parseModelSpec('anthropic:claude-sonnet-4-6')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    expect(parseModelSpec('ollama:qwen2.5:7b')).toEqual({ provider: 'ollama', model: 'qwen2.5:7b' });
  });

  it('names a misspelt provider with the one it was probably meant to be, and every known one', () => {
    expect(() => parseModelSpec('antropic:claude')).toThrow(
      /unknown provider "antropic" in model "antropic:claude" \(did you mean anthropic\? known: anthropic, openai/,
    );
    expect(() => parseModelSpec('zzz:m')).toThrow(/unknown provider "zzz" in model "zzz:m" \(known: anthropic/);
    expect(() => parseModelSpec('zzz:m')).toThrow(ModelChoiceError);
  });

  it('refuses a spec without provider or model', () => {
    expect(() => parseModelSpec('claude')).toThrow(/has no provider: write it as provider:model/);
    expect(() => parseModelSpec('gemini:')).toThrow(/names no model after "gemini:"/);
  });

  it('says a provider named alone needs a model after it, with an example of that provider', () => {
    expect(() => parseModelSpec('anthropic')).toThrow(
      'model "anthropic" names the provider but no model: write it as anthropic:MODEL, e.g. anthropic:claude-sonnet-4-6',
    );
    expect(() => parseModelSpec('ollama')).toThrow(
      'model "ollama" names the provider but no model: write it as ollama:MODEL, e.g. ollama:qwen2.5',
    );
    expect(() => parseModelSpec('scripted')).toThrow(
      'model "scripted" names the provider but no script: write it as scripted:PATH, e.g. scripted:examples/scripts/five-plus-seven.json',
    );
  });
});

describe('chooseModel', () => {
  it('takes the flag over the config over the first key set', () => {
    const env = { OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' };
    expect(chooseModel({ flag: 'gemini:x', config: 'openai:y', env }).spec).toBe('gemini:x');
    expect(chooseModel({ config: 'openai:y', env }).spec).toBe('openai:y');
    expect(chooseModel({ env }).spec).toBe('openai:gpt-5');
  });
});
