import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { mapOpenAiError } from '../../../src/providers/openai-chat/map-openai-error.js';
import { ProviderError } from '../../../src/providers/types.js';

const headers = new Headers();
const status = (code: number, message: string) => APIError.generate(code, { error: { message } }, undefined, headers);

describe('mapOpenAiError', () => {
  it('says what to do per status, and which failures may pass on a retry', () => {
    const local = { provider: 'ollama', model: 'qwen2.5', baseUrl: 'http://127.0.0.1:11434/v1' };
    const missing = mapOpenAiError(status(404, 'model "qwen2.5" not found, try pulling it first'), local);
    expect(missing.message).toBe(
      'ollama answered HTTP 404: model "qwen2.5" not found, try pulling it first. Is the model pulled? Run: ollama pull qwen2.5',
    );
    expect(missing.details).toMatchObject({ provider: 'ollama', status: 404, retryable: false });
    const remote = { provider: 'openai', model: 'gpt-5', baseUrl: undefined };
    expect(mapOpenAiError(status(500, 'The server had an error'), remote).details.retryable).toBe(true);
    expect(mapOpenAiError(status(400, "Invalid 'messages'"), remote).details.retryable).toBe(false);
  });

  it('names where it could not connect, and passes a ProviderError through', () => {
    const context = { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' };
    const refused = mapOpenAiError(new APIConnectionError({ cause: new Error('connect ECONNREFUSED') }), context);
    expect(refused.message).toMatch(
      /could not connect to http:\/\/127\.0\.0\.1:1\/v1: connect ECONNREFUSED\. Is the server running/,
    );
    expect(refused.details.retryable).toBe(true);
    const own = new ProviderError('already mapped', { provider: 'openai' });
    expect(mapOpenAiError(own, context)).toBe(own);
    expect(mapOpenAiError(new APIUserAbortError(), context).message).toBe('The openai-compatible request was aborted.');
  });
});
