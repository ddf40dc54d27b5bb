/**
 * Where an OpenAI-protocol client should connect and with which key, for OpenAI itself and for the
 * local servers that speak its Chat Completions protocol (Ollama, llama.cpp, vLLM, LM Studio).
 *
 * The `openai` SDK reads `OPENAI_API_KEY` / `OPENAI_BASE_URL` from `process.env` on its own; the
 * adapters resolve both here from an explicit environment instead, so a caller (and a test) decides
 * what is read, and so an OpenAI key is never sent to a local server that did not ask for it.
 */
import { ProviderError } from '../types.js';

/** Provider ids served by the OpenAI protocol adapters. */
type OpenAiProtocolProvider = 'openai' | 'openai-responses' | 'ollama' | 'openai-compatible';

export type Environment = Readonly<Record<string, string | undefined>>;

interface OpenAiConnectionOptions {
  provider: OpenAiProtocolProvider;
  apiKey?: string;
  baseUrl?: string;
  env?: Environment;
}

export interface OpenAiConnection {
  apiKey: string;
  /** `undefined` means the SDK's own default (OpenAI's public endpoint). */
  baseUrl: string | undefined;
  /** A local server: no strict tool schemas, quirk tolerance, placeholder key. */
  local: boolean;
}

/** Ollama's OpenAI-compatible endpoint when neither a base URL nor `OLLAMA_HOST` says otherwise. */
export const defaultOllamaBaseUrl = 'http://127.0.0.1:11434/v1';
const defaultOllamaPort = '11434';

/**
 * The SDK refuses to start without a key even when the server ignores it; local servers get this
 * placeholder unless the user gave a real one.
 */
export const localServerPlaceholderKey = 'not-needed';

export function resolveOpenAiConnection(options: OpenAiConnectionOptions): OpenAiConnection {
  const env = options.env ?? process.env;
  const givenBaseUrl = nonEmpty(options.baseUrl);
  switch (options.provider) {
    case 'openai':
    case 'openai-responses': {
      const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
      if (apiKey === undefined) {
        throw new ProviderError(
          `The ${options.provider} provider needs an API key: set OPENAI_API_KEY (or pass apiKey). ` +
            'For a local OpenAI-compatible server use the ollama: or openai-compatible: provider instead.',
          { provider: options.provider, retryable: false },
        );
      }
      const baseUrl = givenBaseUrl ?? nonEmpty(env.OPENAI_BASE_URL);
      return { apiKey, baseUrl: baseUrl === undefined ? undefined : trimTrailingSlash(baseUrl), local: false };
    }
    case 'ollama': {
      const baseUrl = givenBaseUrl ? trimTrailingSlash(givenBaseUrl) : ollamaBaseUrl(env.OLLAMA_HOST);
      const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OLLAMA_API_KEY) ?? localServerPlaceholderKey;
      return { apiKey, baseUrl, local: true };
    }
    case 'openai-compatible': {
      const baseUrl = givenBaseUrl ?? nonEmpty(env.OPENAI_BASE_URL);
      if (baseUrl === undefined) {
        throw new ProviderError(
          'The openai-compatible provider needs the server’s base URL: pass --base-url (for example ' +
            '--base-url http://127.0.0.1:8080/v1) or set OPENAI_BASE_URL.',
          { provider: options.provider, retryable: false },
        );
      }
      const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY) ?? localServerPlaceholderKey;
      return { apiKey, baseUrl: trimTrailingSlash(baseUrl), local: true };
    }
  }
}

/**
 * Ollama's base URL from `OLLAMA_HOST`, which Ollama itself accepts as `host`, `host:port` or a
 * URL, with or without `/v1`. A bind-all address (`0.0.0.0`) is where Ollama listens, not an
 * address to connect to: it becomes loopback.
 */
export function ollamaBaseUrl(ollamaHost: string | undefined): string {
  const host = nonEmpty(ollamaHost);
  if (host === undefined) return defaultOllamaBaseUrl;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host);
  let url: URL;
  try {
    url = new URL(hasScheme ? host : `http://${host}`);
  } catch {
    throw new ProviderError(
      `OLLAMA_HOST is not a host, host:port or URL: ${JSON.stringify(host)}. Example: OLLAMA_HOST=127.0.0.1:11434`,
      { provider: 'ollama', retryable: false },
    );
  }
  // Ollama's own default port applies to a bare host; a URL with a scheme keeps the scheme's port.
  if (!hasScheme && url.port === '') url.port = defaultOllamaPort;
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  const path = trimTrailingSlash(url.pathname);
  const withVersion = path.endsWith('/v1') ? path : `${path}/v1`;
  return `${url.protocol}//${url.host}${withVersion}`;
}

function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
