/**
 * The Anthropic LlmProvider: the official SDK's client plus this folder's pure mappings. It reads
 * ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL (options win), reports the exact request body before
 * sending it, streams through our own accumulator, and turns every SDK failure into a
 * ProviderError. An aborted request rejects with the signal's reason.
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  type GenerateOptions,
  type LlmProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
} from '../types.js';
import { readAnthropicStream } from './anthropic-stream-accumulator.js';
import { anthropicModelHasToolSearch } from './anthropic-tool-search.js';
import { fromAnthropicResponse } from './from-anthropic-response.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { translateAnthropicRequest } from './to-anthropic-request.js';

/** `max_tokens` for a request that sets none: enough for a long answer, well under every model's cap. */
const defaultAnthropicMaxOutputTokens = 4096;
const defaultAnthropicBaseUrl = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  /** Model id, e.g. `claude-sonnet-4-6`. */
  model: string;
  /** API key. Default: `ANTHROPIC_API_KEY` from `env`. */
  apiKey?: string;
  /** API base URL, without `/v1`. Default: `ANTHROPIC_BASE_URL` from `env`, else the public API. */
  baseUrl?: string;
  /** Retries the SDK makes (with backoff) on 408/409/429/5xx and lost connections. Default 2. */
  maxRetries?: number;
  /** `max_tokens` when a request sets no `maxOutputTokens`. Default 4096. */
  maxOutputTokens?: number;
  /** Environment to read the key and base URL from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Whether the model searches deferred tools itself (Anthropic's tool search). Default: whether the model is one
   * the documentation lists (see `anthropicModelHasToolSearch`).
   */
  nativeToolSearch?: boolean;
}

export function createAnthropicProvider(options: AnthropicProviderOptions): LlmProvider {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env.ANTHROPIC_API_KEY;
  if (!apiKey) {
    throw new ProviderError(
      'No Anthropic API key: set the ANTHROPIC_API_KEY environment variable (or pass apiKey) to use anthropic models.',
      { provider: 'anthropic', retryable: false },
    );
  }
  const baseUrl = normaliseBaseUrl(options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? defaultAnthropicBaseUrl);
  // The base URL is always passed, so the SDK never falls back to process.env when `env` was given.
  const client = new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: options.maxRetries ?? 2 });
  const model = options.model;
  const maxOutputTokens = options.maxOutputTokens ?? defaultAnthropicMaxOutputTokens;

  return {
    provider: 'anthropic',
    model,
    nativeToolSearch: options.nativeToolSearch ?? anthropicModelHasToolSearch(model),
    async generate(request: ModelRequest, generateOptions: GenerateOptions = {}): Promise<ModelResponse> {
      const { signal } = generateOptions;
      signal?.throwIfAborted();
      const { body, wrappedTools } = translateAnthropicRequest(request, {
        model,
        maxOutputTokens,
        stream: generateOptions.stream === true,
      });
      generateOptions.onProviderRequest?.(body);
      try {
        if (body.stream) {
          const events = await client.messages.create(body, { signal });
          return await readAnthropicStream(
            events,
            generateOptions.onTextDelta,
            { wrappedTools },
            generateOptions.onToolCallDelta,
          );
        }
        const message = await client.messages.create(body, { signal });
        return fromAnthropicResponse(message, { wrappedTools });
      } catch (error) {
        // The SDK ends an aborted stream quietly; the signal says what really happened.
        if (signal?.aborted) throw signal.reason;
        throw mapAnthropicError(error, { baseUrl });
      }
    },
  };
}

/**
 * Trailing slashes go, and so does a trailing `/v1`: the SDK adds `/v1/messages` itself, and
 * `…/v1` (right for OpenAI-style URLs) is the usual mistake here.
 */
function normaliseBaseUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
  try {
    new URL(trimmed);
  } catch {
    throw new ProviderError(
      `The Anthropic base URL ${JSON.stringify(value)} is not a valid URL. Set ANTHROPIC_BASE_URL (or baseUrl) to e.g. http://127.0.0.1:8080.`,
      { provider: 'anthropic', retryable: false },
    );
  }
  return trimmed;
}
