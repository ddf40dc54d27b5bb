import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { mapGeminiError } from '../../../src/providers/gemini/map-gemini-error.js';
import { ProviderError } from '../../../src/providers/types.js';

function apiError(status: number, message: string, reason: string): ApiError {
  return new ApiError({ status, message: JSON.stringify({ error: { code: status, message, status: reason } }) });
}

describe('mapGeminiError', () => {
  it.each([
    [400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', false, /Check GEMINI_API_KEY/],
    [403, 'Permission denied', 'PERMISSION_DENIED', false, /Check GEMINI_API_KEY/],
    [404, 'models/nope is not found', 'NOT_FOUND', false, /Check the model name/],
    [429, 'Quota exceeded', 'RESOURCE_EXHAUSTED', true, /Rate limited/],
    [503, 'The model is overloaded', 'UNAVAILABLE', true, /server error: try again/],
  ])('maps HTTP %i', (status, message, reason, retryable, hint) => {
    const error = mapGeminiError(apiError(status, message, reason));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain(`Gemini API error ${status} ${reason}: ${message.replace(/\.$/, '')}`);
    expect(error.message).toMatch(hint);
    expect(error.details).toMatchObject({ provider: 'gemini', status, retryable });
  });

  it('reads an error that arrived inside a stream ("got status: …" before the body)', () => {
    const body = { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } };
    const error = mapGeminiError(
      new ApiError({ status: 500, message: `got status: INTERNAL. ${JSON.stringify(body)}` }),
    );
    expect(error.message).toMatch(/^Gemini API error 500 INTERNAL: Internal error\./);
  });

  it('keeps a ProviderError as it is and wraps anything else', () => {
    const original = new ProviderError('already mapped', { provider: 'gemini' });
    expect(mapGeminiError(original)).toBe(original);
    expect(mapGeminiError(new Error('boom')).message).toBe('The Gemini request failed: boom');
  });
});
