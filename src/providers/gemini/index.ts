/** The Gemini provider adapter: the provider factory and its pure mappings (for tests and tracing). */

export {
  fromGeminiResponse,
  type GeminiResponseContext,
  madeUpCallId,
  mapGeminiUsage,
} from './from-gemini-response.js';
export { createGeminiProvider, defaultGeminiBaseUrl, type GeminiProviderOptions } from './gemini-provider.js';
export { geminiProviderId, geminiReplay, replayedGeminiContent } from './gemini-replay.js';
export { GeminiStreamAccumulator, type GeminiStreamFrame, readGeminiStream } from './gemini-stream-accumulator.js';
export { mapGeminiError } from './map-gemini-error.js';
export { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
export {
  type GeminiRequest,
  type GeminiRequestTranslation,
  placeholderThoughtSignature,
  toGeminiContents,
  toGeminiRequest,
} from './to-gemini-request.js';
