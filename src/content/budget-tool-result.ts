/**
 * The output budget as the agent loop uses it: fit a result into its token budget, and keep the full text of a
 * result that had to be cut in the result store, so the notice can point the model (and the audit) at it.
 * Synchronous: the store hands out the id at once and writes the file in the background (`read_stored_result`
 * waits for it; call `store.flush()` before exiting).
 */
import { claimSpilledText, type SpilledText } from '../connections/spilled-text.js';
import type { ToolResultPart } from './content-parts.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from './default-result-budget.js';
import { estimatePartsTokens, quartersToTokens } from './linear-token-estimate.js';
import { applyOutputBudget, type BudgetedResult, spilledQuarters, storedTextOf } from './output-budget.js';
import type { ResultStore } from './result-store.js';

export interface BudgetToolResultOptions {
  /** Where the full text of a cut result is kept. */
  store: ResultStore;
  /** The most estimated tokens for the result; default {@link DEFAULT_RESULT_TOKEN_BUDGET}. */
  maxTokensPerResult?: number;
  /** Tokens charged per image; default by its pixels where its header says them (`estimateImageTokens`). */
  imageTokenCost?: number;
  /** What the parts are, as the notices name it: `this tool result` unless told otherwise. */
  subject?: string;
}

export interface StoredBudgetedResult extends BudgetedResult {
  /** The id of the stored full text, when the result was over its budget and had text to keep. */
  storedResultId?: string;
}

/**
 * Budgets one mapped result. A result within its budget is returned as it is and nothing is stored; a result over
 * it is stored (its text parts) and cut.
 */
export function budgetToolResult(
  parts: readonly ToolResultPart[],
  options: BudgetToolResultOptions,
): StoredBudgetedResult {
  const imageTokenCost = options.imageTokenCost;
  const maxTokens = options.maxTokensPerResult ?? DEFAULT_RESULT_TOKEN_BUDGET;
  const facts = spilledParts(parts);
  const size =
    facts === undefined
      ? estimatePartsTokens(parts, imageTokenCost)
      : estimatePartsTokens(
          parts.filter((part) => part.type !== 'text'),
          imageTokenCost,
        ) + quartersToTokens(spilledQuarters(facts));
  if (facts === undefined && size <= maxTokens) {
    // Within its budget: passed on whole, without estimating its text a second time.
    return { content: [...parts], cut: false, originalTokens: size, keptTokens: size };
  }
  const hasText = parts.some((part) => part.type === 'text');
  // A text kept out of memory is stored already, as the result's only text.
  const storedResultId =
    facts !== undefined ? facts.id : hasText ? options.store.startSave(storedTextOf(parts)) : undefined;
  const result = applyOutputBudget(parts, {
    maxTokens,
    resultId: storedResultId,
    imageTokenCost,
    subject: options.subject,
    spilled: facts === undefined ? undefined : parts.map((part) => (part.type === 'text' ? facts : undefined)),
  });
  return storedResultId === undefined ? result : { storedResultId, ...result };
}

/**
 * The text kept out of memory that a result's only text part stands in for, if it is one. A result with several
 * text parts is budgeted from their texts as they are (a stand-in names the stored copy of its whole text itself).
 */
function spilledParts(parts: readonly ToolResultPart[]): SpilledText | undefined {
  const texts = parts.filter((part) => part.type === 'text');
  if (texts.length !== 1) return undefined;
  return claimSpilledText((texts[0] as { text: string }).text);
}
