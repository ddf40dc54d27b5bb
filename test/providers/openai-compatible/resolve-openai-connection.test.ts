import { describe, expect, it } from 'vitest';
import {
  defaultOllamaBaseUrl,
  localServerPlaceholderKey,
  ollamaBaseUrl,
  resolveOpenAiConnection,
} from '../../../src/providers/openai-compatible/resolve-openai-connection.js';
import { ProviderError } from '../../../src/providers/types.js';

describe('ollamaBaseUrl', () => {
  it.each([
    [undefined, defaultOllamaBaseUrl],
    ['', defaultOllamaBaseUrl],
    ['127.0.0.1:9999', 'http://127.0.0.1:9999/v1'],
    ['gpu-box', 'http://gpu-box:11434/v1'],
    ['0.0.0.0', 'http://127.0.0.1:11434/v1'],
    ['0.0.0.0:8080', 'http://127.0.0.1:8080/v1'],
    ['http://gpu-box:8080', 'http://gpu-box:8080/v1'],
    ['http://gpu-box:8080/', 'http://gpu-box:8080/v1'],
    ['http://gpu-box:8080/v1', 'http://gpu-box:8080/v1'],
    ['https://ollama.example.org', 'https://ollama.example.org/v1'],
    ['http://gpu-box:8080/proxy/ollama/', 'http://gpu-box:8080/proxy/ollama/v1'],
  ])('OLLAMA_HOST=%j → %s', (host, expected) => {
    expect(ollamaBaseUrl(host)).toBe(expected);
  });
});

describe('resolveOpenAiConnection', () => {
  it('openai: needs a key, honours OPENAI_BASE_URL, options win', () => {
    expect(() => resolveOpenAiConnection({ provider: 'openai', env: {} })).toThrow(/set OPENAI_API_KEY/);
    expect(resolveOpenAiConnection({ provider: 'openai', env: { OPENAI_API_KEY: 'k' } })).toEqual({
      apiKey: 'k',
      baseUrl: undefined,
      local: false,
    });
    expect(
      resolveOpenAiConnection({
        provider: 'openai',
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://proxy/v1/' },
      }),
    ).toEqual({ apiKey: 'k', baseUrl: 'http://proxy/v1', local: false });
    expect(
      resolveOpenAiConnection({
        provider: 'openai-responses',
        apiKey: 'given',
        baseUrl: 'http://other/v1',
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://proxy/v1' },
      }),
    ).toEqual({ apiKey: 'given', baseUrl: 'http://other/v1', local: false });
  });

  it('ollama: OLLAMA_HOST or the default, a placeholder key, never the OpenAI key', () => {
    expect(resolveOpenAiConnection({ provider: 'ollama', env: { OPENAI_API_KEY: 'secret' } })).toEqual({
      apiKey: localServerPlaceholderKey,
      baseUrl: defaultOllamaBaseUrl,
      local: true,
    });
    expect(
      resolveOpenAiConnection({ provider: 'ollama', env: { OLLAMA_HOST: '10.0.0.5:1234', OLLAMA_API_KEY: 'ok' } }),
    ).toEqual({
      apiKey: 'ok',
      baseUrl: 'http://10.0.0.5:1234/v1',
      local: true,
    });
  });

  it('openai-compatible: requires a base URL and says how to give one', () => {
    let caught: unknown;
    try {
      resolveOpenAiConnection({ provider: 'openai-compatible', env: {} });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as Error).message).toMatch(/--base-url/);
    expect((caught as Error).message).toMatch(/OPENAI_BASE_URL/);
    expect(
      resolveOpenAiConnection({ provider: 'openai-compatible', env: { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' } }),
    ).toEqual({
      apiKey: localServerPlaceholderKey,
      baseUrl: 'http://127.0.0.1:8080/v1',
      local: true,
    });
  });
});
