/** Offline token estimates (o200k_base) for tool definitions and text. */

export {
  estimateTextTokens,
  estimateToolListTokens,
  estimateToolTokens,
  toolListTokensExceed,
} from './o200k-token-estimate.js';
