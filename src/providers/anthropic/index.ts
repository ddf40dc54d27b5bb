/** The Anthropic provider adapter: the provider factory and its pure mappings (for tests and tracing). */

export {
  type AnthropicProviderOptions,
  createAnthropicProvider,
  defaultAnthropicBaseUrl,
  defaultAnthropicMaxOutputTokens,
} from './anthropic-provider.js';
export {
  AnthropicStreamAccumulator,
  type AnthropicStreamEvent,
  readAnthropicStream,
} from './anthropic-stream-accumulator.js';
export { applyAnthropicCacheControl, maxAnthropicCacheBreakpoints } from './apply-anthropic-cache-control.js';
export { type AnthropicResponseContext, fromAnthropicResponse, inputForServer } from './from-anthropic-response.js';
export { mapAnthropicError } from './map-anthropic-error.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { mapAnthropicUsage } from './map-anthropic-usage.js';
export {
  type AnthropicInputSchema,
  type AnthropicToolSchema,
  toAnthropicInputSchema,
  toAnthropicToolSchema,
} from './to-anthropic-input-schema.js';
export {
  type AnthropicRequestSettings,
  type AnthropicTranslation,
  toAnthropicMessages,
  toAnthropicRequest,
  translateAnthropicRequest,
} from './to-anthropic-request.js';
