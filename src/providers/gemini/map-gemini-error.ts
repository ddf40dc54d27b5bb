/**
 * Errors from the Gemini SDK → ProviderError with the HTTP status, whether trying again may help,
 * and what to do. The SDK throws `ApiError` whose message is the JSON error body (Google's shape:
 * `{error: {code, message, status}}`), sometimes prefixed by "got status: …" for errors inside a
 * stream; the readable message is dug out of it.
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */

import { ApiError } from '@google/genai';
import { ProviderError } from '../types.js';

const retryableStatuses = new Set([408, 429, 500, 502, 503, 504]);

interface GeminiErrorContext {
  /** The base URL in use, named when the server cannot be reached. */
  baseUrl?: string;
}

export function mapGeminiError(error: unknown, context: GeminiErrorContext = {}): ProviderError {
  if (error instanceof ProviderError) return error;
  const provider = 'gemini';
  if (error instanceof ApiError) {
    const status = error.status;
    const { message, reason } = readGoogleError(error.message);
    const label = [status, reason].filter((part) => part !== undefined).join(' ');
    return new ProviderError(`Gemini API error ${label}: ${message}. ${hint(status, message)}`, {
      provider,
      status,
      retryable: retryableStatuses.has(status),
      cause: error,
    });
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new ProviderError('The Gemini request was aborted.', { provider, retryable: false, cause: error });
  }
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    const where = context.baseUrl ? ` at ${context.baseUrl}` : '';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ProviderError(
      `Cannot reach the Gemini API${where}${cause}. Check the network and the base URL (--base-url, else GOOGLE_GEMINI_BASE_URL).`,
      { provider, retryable: true, cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The Gemini request failed: ${message}`, { provider, retryable: false, cause: error });
}

/** `{error: {message, status}}` from an ApiError message, which holds the body as JSON text. */
function readGoogleError(text: string): { message: string; reason?: string } {
  const start = text.indexOf('{');
  if (start !== -1) {
    try {
      const body = JSON.parse(text.slice(start)) as { error?: { message?: unknown; status?: unknown } };
      const message = typeof body.error?.message === 'string' ? body.error.message : undefined;
      const reason = typeof body.error?.status === 'string' ? body.error.status : undefined;
      if (message !== undefined) return { message: message.replace(/\.$/, ''), reason };
    } catch {
      // Not JSON after all: the raw text is the best message there is.
    }
  }
  return { message: text };
}

function hint(status: number, message: string): string {
  if (status === 401 || status === 403 || /api key/i.test(message)) {
    return 'Check GEMINI_API_KEY or GOOGLE_API_KEY (or the apiKey option).';
  }
  if (status === 404) return 'Check the model name, and that the base URL is the bare host (no /v1beta).';
  if (status === 429) return 'Rate limited or out of quota: wait and try again, or lower the request rate.';
  if (status >= 500) return 'Gemini had a server error: try again.';
  if (status === 400) return 'The API rejected the request as sent.';
  return 'See the message for what failed.';
}
