/**
 * The content layer: MCP tool results → provider-neutral content the model is shown, bounded by the output
 * budget, with the full text of cut results kept for retrieval and audit.
 */
export {
  type BudgetToolResultOptions,
  budgetToolResult,
  type StoredBudgetedResult,
} from './budget-tool-results.js';
export { type CutTextOptions, type CutTextResult, cutText } from './cut-text.js';
export {
  DEFAULT_IMAGE_TOKEN_COST,
  estimatePartsTokens,
  estimatePartTokens,
  estimateTokens,
} from './linear-token-estimate.js';
export {
  EMPTY_RESULT_TEXT,
  type MappedToolInfo,
  type MappedToolResult,
  mapContentBlock,
  mapToolResult,
} from './map-tool-result.js';
export {
  applyOutputBudget,
  type BudgetedResult,
  DEFAULT_RESULT_TOKEN_BUDGET,
  type OutputBudgetOptions,
  STORED_TEXT_SEPARATOR,
  storedTextOf,
} from './output-budget.js';
export {
  handleReadStoredResult,
  READ_STORED_RESULT_TOOL_NAME,
  type ReadStoredResultAnswer,
  readStoredResultTool,
} from './read-stored-result-tool.js';
export {
  createResultStore,
  DEFAULT_MAX_STORED_BYTES,
  MAX_STORED_READ_LENGTH,
  type ResultStore,
  ResultStoreError,
  type ResultStoreErrorCode,
  type ResultStoreOptions,
  type StoredResultSlice,
} from './result-store.js';
export { shareBudget } from './share-budget.js';
