/**
 * Errors from the `openai` SDK (OpenAI itself or a local server behind it) → ProviderError saying
 * what failed, whether trying again may help, and what to do. Shared by the Chat and Responses
 * adapters. Status meanings: https://platform.openai.com/docs/guides/error-codes
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ProviderError } from '../types.js';

export interface OpenAiErrorContext {
  /** Provider id, e.g. `openai`, `ollama`. */
  provider: string;
  model: string;
  /** Where the client connects; `undefined` means OpenAI's default endpoint. */
  baseUrl: string | undefined;
}

export function mapOpenAiError(error: unknown, context: OpenAiErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const { provider } = context;
  const where = context.baseUrl ?? 'the OpenAI API';
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new ProviderError(`The ${provider} request was aborted.`, { provider, retryable: false, cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError(`${provider}: the request to ${where} timed out. Try again, or check the server.`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const local = provider === 'ollama' || provider === 'openai-compatible';
    const hint = local ? ' Is the server running and is the base URL right (it usually ends in /v1)?' : '';
    return new ProviderError(`${provider}: could not connect to ${where}: ${causeText(error)}.${hint}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const serverMessage = serverMessageOf(error);
    return new ProviderError(`${provider} answered HTTP ${status}: ${serverMessage}. ${advice(status, context)}`, {
      provider,
      status,
      retryable: isRetryableStatus(status),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${provider}: ${message}`, { provider, retryable: false, cause: error });
}

/** Rate limits, timeouts, conflicts and server errors may pass; the rest will fail the same way again. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function advice(status: number, context: OpenAiErrorContext): string {
  const local = context.provider === 'ollama' || context.provider === 'openai-compatible';
  switch (status) {
    case 401:
      return local
        ? 'The server wants an API key: pass it with --api-key (or set OPENAI_API_KEY / OLLAMA_API_KEY).'
        : 'Check OPENAI_API_KEY: it is missing, revoked or for another organisation.';
    case 403:
      return 'The key is not allowed to use this model or endpoint.';
    case 404:
      return context.provider === 'ollama'
        ? `Is the model pulled? Run: ollama pull ${context.model}`
        : `Check the model name (${context.model}) and the base URL (${context.baseUrl ?? 'default'}).`;
    case 429:
      return 'Rate limited or out of quota: wait and try again, or check the account’s limits.';
    case 400:
    case 422:
      return 'The request was rejected as malformed; the message above says which field.';
    default:
      return status >= 500 ? 'The server failed; trying again later may work.' : 'See the message above.';
  }
}

/** The server's own words: `error.message` of the body when it has one. */
function serverMessageOf(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message !== '') return body.message.replace(/[.\s]+$/, '');
  return error.message.replace(/^\d{3}\s*/, '').replace(/[.\s]+$/, '') || 'no details';
}

function causeText(error: APIConnectionError): string {
  const cause = error.cause as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  return cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? error.message;
}
