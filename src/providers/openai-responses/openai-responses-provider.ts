/**
 * The OpenAI Responses provider (`openai-responses:MODEL`): pure mappings around one `openai`
 * client, stateless (`store: false`), streaming through its own accumulator over the raw events.
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { createOpenAiClient } from '../openai-chat/create-openai-client.js';
import { mapOpenAiError, type OpenAiErrorContext } from '../openai-chat/map-openai-error.js';
import { type Environment, resolveOpenAiConnection } from '../openai-compatible/resolve-openai-connection.js';
import type { GenerateOptions, LlmProvider, ModelRequest, ModelResponse } from '../types.js';
import { fromOpenAiResponsesResponse } from './from-openai-responses-response.js';
import { responsesProviderId } from './openai-responses-replay.js';
import { OpenAiResponsesStreamAccumulator } from './openai-responses-stream-accumulator.js';
import { responsesModelHasToolSearch } from './openai-responses-tool-search.js';
import { translateOpenAiResponsesRequest } from './to-openai-responses-request.js';

export interface OpenAiResponsesProviderOptions {
  model: string;
  /** Default `OPENAI_API_KEY`. */
  apiKey?: string;
  /** With `/v1`. Default `OPENAI_BASE_URL`, else OpenAI's endpoint. */
  baseUrl?: string;
  /** SDK retries with backoff on 408/409/429/5xx and connection errors. Default 2; tests of error paths use 0. */
  maxRetries?: number;
  /** Where keys and URLs are read from. Default `process.env`. */
  env?: Environment;
  /**
   * Ask OpenAI for strict mode on each tool whose schema can be strict (the model's arguments then
   * follow the schema exactly, except in parallel calls). Default false: see `openai-tool-schema.ts`.
   */
  strictTools?: boolean;
  /**
   * Whether the model searches deferred tools itself (OpenAI's hosted tool search). Default: whether the model is
   * one the documentation names (see `responsesModelHasToolSearch`).
   */
  nativeToolSearch?: boolean;
}

export function createOpenAiResponsesProvider(options: OpenAiResponsesProviderOptions): LlmProvider {
  const provider = responsesProviderId;
  const env = options.env ?? process.env;
  const connection = resolveOpenAiConnection({ provider, apiKey: options.apiKey, baseUrl: options.baseUrl, env });
  const client = createOpenAiClient(connection, { maxRetries: options.maxRetries, env });
  const errorContext: OpenAiErrorContext = { provider, model: options.model, baseUrl: connection.baseUrl };

  async function generate(request: ModelRequest, generateOptions: GenerateOptions = {}): Promise<ModelResponse> {
    const { body, toolShapes } = translateOpenAiResponsesRequest(request, {
      model: options.model,
      strictTools: options.strictTools,
    });
    const { signal, onTextDelta, onToolCallDelta, onProviderRequest } = generateOptions;
    signal?.throwIfAborted();
    try {
      if (generateOptions.stream) {
        const streamBody: ResponseCreateParamsStreaming = { ...body, stream: true };
        onProviderRequest?.(streamBody);
        const stream = await client.responses.create(streamBody, { signal });
        const accumulator = new OpenAiResponsesStreamAccumulator({ onTextDelta, onToolCallDelta, toolShapes });
        for await (const event of stream) accumulator.push(event);
        // The SDK ends an aborted stream quietly; a partial answer must not pass for a whole one.
        signal?.throwIfAborted();
        return accumulator.finish();
      }
      onProviderRequest?.(body);
      return fromOpenAiResponsesResponse(await client.responses.create(body, { signal }), toolShapes);
    } catch (error) {
      // An abort is the caller's own doing: it rejects with the signal's reason, as every adapter does.
      if (signal?.aborted) throw signal.reason;
      throw mapOpenAiError(error, errorContext);
    }
  }

  const nativeToolSearch = options.nativeToolSearch ?? responsesModelHasToolSearch(options.model);
  return { provider, model: options.model, nativeToolSearch, generate };
}
