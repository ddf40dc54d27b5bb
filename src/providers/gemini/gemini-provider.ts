/**
 * The Gemini LlmProvider: the official `@google/genai` client plus this folder's pure mappings.
 * It reads GEMINI_API_KEY or GOOGLE_API_KEY and GOOGLE_GEMINI_BASE_URL (options win), always talks
 * to the Gemini Developer API (never Vertex, whatever the environment says), lets the SDK reach only
 * the base URL, turns off the SDK's own automatic function calling and continuation (the host runs
 * the loop), streams through our own accumulator, and turns every failure into a ProviderError.
 * An aborted request rejects with the signal's reason.
 */

import { GoogleGenAI } from '@google/genai';
import {
  type GenerateOptions,
  type LlmProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
} from '../types.js';
import { fromGeminiResponse } from './from-gemini-response.js';
import { readGeminiStream } from './gemini-stream-accumulator.js';
import { mapGeminiError } from './map-gemini-error.js';
import { onlyBaseUrlFetch } from './only-base-url-fetch.js';
import { toGeminiRequest } from './to-gemini-request.js';

export const defaultGeminiBaseUrl = 'https://generativelanguage.googleapis.com';

export interface GeminiProviderOptions {
  /** Model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** API key. Default: `GOOGLE_API_KEY`, else `GEMINI_API_KEY` from `env` (the SDK's own order). */
  apiKey?: string;
  /** Bare host, without `/v1beta`. Default: `GOOGLE_GEMINI_BASE_URL` from `env`, else the public API. */
  baseUrl?: string;
  /** Retries the SDK makes (with backoff) on 408/429/5xx. Default 2. */
  maxRetries?: number;
  /** Environment to read the key and base URL from. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

export function createGeminiProvider(options: GeminiProviderOptions): LlmProvider {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? (env.GOOGLE_API_KEY || env.GEMINI_API_KEY);
  if (!apiKey) {
    throw new ProviderError(
      'No Gemini API key: set the GEMINI_API_KEY (or GOOGLE_API_KEY) environment variable, or pass apiKey, to use gemini models.',
      { provider: 'gemini', retryable: false },
    );
  }
  const baseUrl = normaliseBaseUrl(options.baseUrl ?? env.GOOGLE_GEMINI_BASE_URL ?? defaultGeminiBaseUrl);
  const maxRetries = options.maxRetries ?? 2;
  // The base URL and backend are always given, so the SDK never falls back to process.env for them.
  const client = new GoogleGenAI({
    apiKey,
    vertexai: false,
    httpOptions: { baseUrl, ...(maxRetries > 0 && { retryOptions: { attempts: maxRetries + 1 } }) },
  });
  const model = options.model;

  return {
    provider: 'gemini',
    model,
    async generate(request: ModelRequest, generateOptions: GenerateOptions = {}): Promise<ModelResponse> {
      const { signal } = generateOptions;
      signal?.throwIfAborted();
      const { request: geminiRequest, wrappedTools } = toGeminiRequest(request);
      const context = {
        turnIndex: request.messages.filter((message) => message.role === 'assistant').length,
        wrappedTools,
      };
      let reported = false;
      const fetch = onlyBaseUrlFetch(baseUrl, (body) => {
        // Retries send the same body again: report it once.
        if (!reported) generateOptions.onProviderRequest?.(body);
        reported = true;
      });
      const parameters = {
        model,
        contents: geminiRequest.contents,
        config: {
          ...geminiRequest.config,
          abortSignal: signal,
          automaticFunctionCalling: { disable: true },
          automaticContinuation: false,
          httpOptions: { fetch },
        },
      };
      try {
        if (generateOptions.stream) {
          const frames = await client.models.generateContentStream(parameters);
          return await readGeminiStream(frames, context, generateOptions.onTextDelta);
        }
        return fromGeminiResponse(await client.models.generateContent(parameters), context);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        throw mapGeminiError(error, { baseUrl });
      }
    },
  };
}

/**
 * Trailing slashes go, and so does a trailing `/v1beta` (or `/v1`): the SDK adds the API version
 * itself, and a URL copied from a REST example is the usual mistake.
 */
function normaliseBaseUrl(value: string): string {
  const trimmed = value
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/v1(beta|alpha)?$/, '');
  try {
    new URL(trimmed);
  } catch {
    throw new ProviderError(
      `The Gemini base URL ${JSON.stringify(value)} is not a valid URL. Set GOOGLE_GEMINI_BASE_URL (or baseUrl) to the bare host, e.g. http://127.0.0.1:8080.`,
      { provider: 'gemini', retryable: false },
    );
  }
  return trimmed;
}
