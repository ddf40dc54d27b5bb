/** Offline token estimates (o200k_base) for tool definitions and text. */

export { estimateTextTokens, estimateToolListTokens, estimateToolTokens } from './o200k-token-estimate.js';
