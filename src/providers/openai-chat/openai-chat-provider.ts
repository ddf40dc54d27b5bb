/**
 * The OpenAI Chat Completions provider (`openai:MODEL`), also used for OpenAI-compatible local
 * servers (`ollama:MODEL`, `openai-compatible:MODEL`): pure mappings around one `openai` client.
 * Local servers get no strict schemas even when asked for, a placeholder key, and a note when the
 * model printed a tool call as text instead of making it.
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { appendTextualToolCallNote } from '../openai-compatible/detect-textual-tool-call.js';
import { type Environment, resolveOpenAiConnection } from '../openai-compatible/resolve-openai-connection.js';
import type { GenerateOptions, LlmProvider, ModelRequest, ModelResponse } from '../types.js';
import { createOpenAiClient } from './create-openai-client.js';
import { fromOpenAiChatResponse } from './from-openai-chat-response.js';
import { mapOpenAiError, type OpenAiErrorContext } from './map-openai-error.js';
import { OpenAiChatStreamAccumulator } from './openai-chat-stream-accumulator.js';
import { translateOpenAiChatRequest } from './to-openai-chat-request.js';

export type OpenAiChatProviderId = 'openai' | 'ollama' | 'openai-compatible';

export interface OpenAiChatProviderOptions {
  model: string;
  /** Default: `OPENAI_API_KEY` (openai, openai-compatible), `OLLAMA_API_KEY` (ollama), else a placeholder for local servers. */
  apiKey?: string;
  /**
   * With `/v1`. Default: `OPENAI_BASE_URL`, else OpenAI's endpoint (openai); `OLLAMA_HOST`, else
   * http://127.0.0.1:11434/v1 (ollama); required for openai-compatible (or `OPENAI_BASE_URL`).
   */
  baseUrl?: string;
  /** SDK retries with backoff on 408/409/429/5xx and connection errors. Default 2; tests of error paths use 0. */
  maxRetries?: number;
  /** Where keys and URLs are read from. Default `process.env`. */
  env?: Environment;
  /** Default `openai`. */
  provider?: OpenAiChatProviderId;
  /**
   * Ask OpenAI for strict mode on each tool whose schema can be strict (the model's arguments then
   * follow the schema exactly, except in parallel calls). Default false: see `openai-tool-schema.ts`.
   */
  strictTools?: boolean;
}

export function createOpenAiChatProvider(options: OpenAiChatProviderOptions): LlmProvider {
  const provider = options.provider ?? 'openai';
  const env = options.env ?? process.env;
  const connection = resolveOpenAiConnection({ provider, apiKey: options.apiKey, baseUrl: options.baseUrl, env });
  const client = createOpenAiClient(connection, { maxRetries: options.maxRetries, env });
  const errorContext: OpenAiErrorContext = { provider, model: options.model, baseUrl: connection.baseUrl };

  async function generate(request: ModelRequest, generateOptions: GenerateOptions = {}): Promise<ModelResponse> {
    const { body, toolShapes } = translateOpenAiChatRequest(request, {
      model: options.model,
      local: connection.local,
      strictTools: options.strictTools,
      providerOptionsKey: provider,
    });
    const { signal, onTextDelta, onToolCallDelta, onProviderRequest } = generateOptions;
    signal?.throwIfAborted();
    let response: ModelResponse;
    try {
      if (generateOptions.stream) {
        const streamBody: ChatCompletionCreateParamsStreaming = {
          ...body,
          stream: true,
          stream_options: { include_usage: true },
        };
        onProviderRequest?.(streamBody);
        const stream = await client.chat.completions.create(streamBody, { signal });
        const accumulator = new OpenAiChatStreamAccumulator({ onTextDelta, onToolCallDelta, toolShapes });
        for await (const chunk of stream) accumulator.push(chunk);
        // The SDK ends an aborted stream quietly; a partial answer must not pass for a whole one.
        signal?.throwIfAborted();
        response = accumulator.finish();
      } else {
        onProviderRequest?.(body);
        response = fromOpenAiChatResponse(await client.chat.completions.create(body, { signal }), provider, toolShapes);
      }
    } catch (error) {
      // An abort is the caller's own doing: it rejects with the signal's reason, as every adapter does.
      if (signal?.aborted) throw signal.reason;
      throw mapOpenAiError(error, errorContext);
    }
    if (connection.local) {
      const note = appendTextualToolCallNote(
        response,
        request.tools.map((tool) => tool.name),
      );
      if (note !== undefined && generateOptions.stream) onTextDelta?.(note);
    }
    return response;
  }

  return { provider, model: options.model, generate };
}
