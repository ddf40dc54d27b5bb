/**
 * Anthropic SDK errors → ProviderError with the HTTP status, whether trying again may help, and
 * what to do about it. Retryable: rate limits, overload, server errors, timeouts, lost connections
 * — the loop's retry policy reads `retryable` and nothing vendor-specific.
 * https://docs.anthropic.com/en/api/errors
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ProviderError } from '../types.js';

const retryableStatuses = new Set([408, 409, 429, 500, 502, 503, 504, 529]);
const retryableTypes = new Set(['rate_limit_error', 'overloaded_error', 'api_error', 'timeout_error']);

interface AnthropicErrorContext {
  /** The base URL in use, named when the server cannot be reached. */
  baseUrl?: string;
}

export function mapAnthropicError(error: unknown, context: AnthropicErrorContext = {}): ProviderError {
  if (error instanceof ProviderError) return error;
  const provider = 'anthropic';
  if (error instanceof APIUserAbortError) {
    return new ProviderError('The Anthropic request was aborted.', { provider, retryable: false, cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError('The Anthropic request timed out. Try again; check the network if it keeps happening.', {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ProviderError(
      `Cannot reach the Anthropic API${where}${cause}. Check the network and the base URL (--base-url, else ANTHROPIC_BASE_URL).`,
      { provider, retryable: true, cause: error },
    );
  }
  if (error instanceof APIError) {
    const status = error.status;
    const type = error.type ?? undefined;
    const retryable =
      (status !== undefined && retryableStatuses.has(status)) || (type !== undefined && retryableTypes.has(type));
    const label = [status, type].filter((part) => part !== undefined).join(' ');
    const detail = error.apiMessage ?? error.message;
    return new ProviderError(`Anthropic API error ${label}: ${detail}. ${hint(status, type)}`, {
      provider,
      ...(status !== undefined && { status }),
      retryable,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The Anthropic request failed: ${message}`, { provider, retryable: false, cause: error });
}

function hint(status: number | undefined, type: string | undefined): string {
  if (status === 401 || type === 'authentication_error') return 'Check ANTHROPIC_API_KEY (or the apiKey option).';
  if (status === 403 || type === 'permission_error') return 'The API key is not allowed to use this model or feature.';
  if (status === 404 || type === 'not_found_error') return 'Check the model name, and that the base URL has no /v1.';
  if (status === 413 || type === 'request_too_large')
    return 'The request is too large: shorten the conversation or tool output.';
  if (status === 429 || type === 'rate_limit_error')
    return 'Rate limited: wait and try again, or lower the request rate.';
  if (status === 529 || type === 'overloaded_error') return 'Anthropic is overloaded: try again shortly.';
  if ((status !== undefined && status >= 500) || type === 'api_error')
    return 'Anthropic had a server error: try again.';
  if (status === 400 || type === 'invalid_request_error') return 'The API rejected the request as sent.';
  return 'See the message for what failed.';
}
