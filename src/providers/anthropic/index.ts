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
export { fromAnthropicResponse } from './from-anthropic-response.js';
export { mapAnthropicError } from './map-anthropic-error.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { mapAnthropicUsage } from './map-anthropic-usage.js';
export { toAnthropicInputSchema } from './to-anthropic-input-schema.js';
export { type AnthropicRequestSettings, toAnthropicMessages, toAnthropicRequest } from './to-anthropic-request.js';
