/** The OpenAI Chat Completions adapter (also for local OpenAI-compatible servers): the factory and its pure mappings. */
export { createOpenAiClient, type OpenAiClientSettings } from './create-openai-client.js';
export {
  argumentsAsText,
  callIdMaker,
  fromOpenAiChatResponse,
  fromOpenAiChatUsage,
} from './from-openai-chat-response.js';
export { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';
export { isRetryableStatus, mapOpenAiError, type OpenAiErrorContext } from './map-openai-error.js';
export {
  createOpenAiChatProvider,
  type OpenAiChatProviderId,
  type OpenAiChatProviderOptions,
} from './openai-chat-provider.js';
export {
  OpenAiChatStreamAccumulator,
  type OpenAiChatStreamAccumulatorOptions,
} from './openai-chat-stream-accumulator.js';
export {
  argumentsForModel,
  argumentsForServer,
  type ToolArgumentShape,
  type ToolArgumentShapes,
  toolArgumentShape,
  withServerArguments,
} from './openai-tool-arguments.js';
export {
  emptyToolResultText,
  imageDataUrl,
  imageInNextMessagePlaceholder,
  toolErrorPrefix,
  toolResultText,
} from './openai-tool-result-content.js';
export {
  type OpenAiFunctionSchema,
  type OpenAiSchemaTarget,
  toOpenAiFunctionSchema,
  toOpenAiParameters,
} from './openai-tool-schema.js';
export {
  missingResultText,
  type OpenAiChatRequestSettings,
  type OpenAiChatTranslation,
  toChatMessages,
  toChatTools,
  toOpenAiChatRequest,
  translateOpenAiChatRequest,
} from './to-openai-chat-request.js';
