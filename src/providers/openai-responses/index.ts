/** The OpenAI Responses adapter: the factory and its pure mappings. */
export {
  fromOpenAiResponsesResponse,
  fromOpenAiResponsesUsage,
  type ResponsesResult,
} from './from-openai-responses-response.js';
export { createOpenAiResponsesProvider, type OpenAiResponsesProviderOptions } from './openai-responses-provider.js';
export {
  type ResponsesReplayData,
  replayItems,
  responsesProviderId,
  toProviderReplay,
} from './openai-responses-replay.js';
export {
  OpenAiResponsesStreamAccumulator,
  type OpenAiResponsesStreamAccumulatorOptions,
} from './openai-responses-stream-accumulator.js';
export {
  type OpenAiResponsesRequestSettings,
  type OpenAiResponsesTranslation,
  toOpenAiResponsesRequest,
  toResponsesInput,
  toResponsesTools,
  translateOpenAiResponsesRequest,
} from './to-openai-responses-request.js';
