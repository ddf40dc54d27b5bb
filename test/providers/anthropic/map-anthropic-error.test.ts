import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  OverloadedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { mapAnthropicError } from '../../../src/providers/anthropic/map-anthropic-error.js';
import { ProviderError } from '../../../src/providers/types.js';

function body(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

describe('mapAnthropicError', () => {
  it('keeps the status and marks 429, 529 and 5xx retryable', () => {
    const rateLimited = mapAnthropicError(
      new RateLimitError(429, body('rate_limit_error', 'Too many'), undefined, new Headers()),
    );
    expect(rateLimited).toBeInstanceOf(ProviderError);
    expect(rateLimited.details).toMatchObject({ provider: 'anthropic', status: 429, retryable: true });
    expect(rateLimited.message).toContain('Too many');
    expect(rateLimited.message).toContain('Rate limited');

    const overloaded = mapAnthropicError(
      new OverloadedError(529, body('overloaded_error', 'Overloaded'), undefined, new Headers()),
    );
    expect(overloaded.details).toMatchObject({ status: 529, retryable: true });
    const server = mapAnthropicError(new APIError(500, body('api_error', 'Internal'), undefined, new Headers()));
    expect(server.details).toMatchObject({ status: 500, retryable: true });
  });

  it('marks client errors not retryable and says what to do', () => {
    const unauthorized = mapAnthropicError(
      new AuthenticationError(401, body('authentication_error', 'invalid x-api-key'), undefined, new Headers()),
    );
    expect(unauthorized.details).toMatchObject({ status: 401, retryable: false });
    expect(unauthorized.message).toContain('ANTHROPIC_API_KEY');
    const badRequest = mapAnthropicError(
      new BadRequestError(400, body('invalid_request_error', 'bad'), undefined, new Headers()),
    );
    expect(badRequest.details).toMatchObject({ status: 400, retryable: false });
  });

  it('maps connection failures and timeouts as retryable, naming the base URL', () => {
    const connection = mapAnthropicError(new APIConnectionError({ cause: new Error('ECONNREFUSED') }), {
      baseUrl: 'http://127.0.0.1:9',
    });
    expect(connection.details.retryable).toBe(true);
    expect(connection.message).toContain('http://127.0.0.1:9');
    expect(connection.message).toContain('ECONNREFUSED');
    expect(mapAnthropicError(new APIConnectionTimeoutError()).details.retryable).toBe(true);
  });

  it('passes a ProviderError through and wraps anything else', () => {
    const original = new ProviderError('already mapped', { provider: 'anthropic' });
    expect(mapAnthropicError(original)).toBe(original);
    const wrapped = mapAnthropicError(new TypeError('boom'));
    expect(wrapped.message).toContain('boom');
    expect(wrapped.details.retryable).toBe(false);
  });
});
