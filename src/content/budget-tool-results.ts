/**
 * The output budget as the agent loop uses it: fit the results of one turn into the per-result and per-turn
 * budgets, and keep the full text of every result that had to be cut in the result store, so the notice can
 * point the model (and the audit) at it. Synchronous: the store hands out the id at once and writes the file
 * in the background (`read_stored_result` waits for it; call `store.flush()` before exiting).
 */
import { claimSpilledText, type SpilledText } from '../connections/spilled-text.js';
import type { ToolResultPart } from './content-parts.js';
import { estimatePartsTokens, quartersToTokens } from './linear-token-estimate.js';
import {
  applyOutputBudget,
  type BudgetedResult,
  DEFAULT_RESULT_TOKEN_BUDGET,
  spilledQuarters,
  storedTextOf,
} from './output-budget.js';
import type { ResultStore } from './result-store.js';
import { turnAllowances } from './turn-budget.js';

export interface BudgetToolResultsOptions {
  /** Where the full text of cut results is kept. */
  store: ResultStore;
  /** The most estimated tokens per result; default {@link DEFAULT_RESULT_TOKEN_BUDGET}. */
  maxTokensPerResult?: number;
  /** The most estimated tokens for all results of the turn together; default no turn limit. */
  maxTokensPerTurn?: number;
  /** Tokens charged per image; default by its pixels where its header says them (`estimateImageTokens`). */
  imageTokenCost?: number;
}

export interface StoredBudgetedResult extends BudgetedResult {
  /** The id of the stored full text, when the result was over its budget and had text to keep. */
  storedResultId?: string;
}

/**
 * Budgets the mapped results of one turn, in call order. A result within its allowance is returned as it
 * is and nothing is stored; a result over it is stored (its text parts) and cut.
 */
export function budgetToolResults(
  results: readonly (readonly ToolResultPart[])[],
  options: BudgetToolResultsOptions,
): StoredBudgetedResult[] {
  const imageTokenCost = options.imageTokenCost;
  const perResult = options.maxTokensPerResult ?? DEFAULT_RESULT_TOKEN_BUDGET;
  const spilled = results.map(spilledParts);
  const sizes = results.map((parts, index) => {
    const facts = spilled[index];
    return facts === undefined
      ? estimatePartsTokens(parts, imageTokenCost)
      : estimatePartsTokens(
          parts.filter((part) => part.type !== 'text'),
          imageTokenCost,
        ) + quartersToTokens(spilledQuarters(facts));
  });
  const allowances =
    options.maxTokensPerTurn === undefined
      ? sizes.map(() => perResult)
      : turnAllowances(sizes, options.maxTokensPerTurn, perResult);

  const budgeted: StoredBudgetedResult[] = [];
  for (const [index, parts] of results.entries()) {
    const maxTokens = allowances[index] ?? 0;
    const facts = spilled[index];
    const size = sizes[index] ?? 0;
    if (facts === undefined && size <= maxTokens) {
      // Within its allowance: passed on whole, without estimating its text a second time.
      budgeted.push({ content: [...parts], cut: false, originalTokens: size, keptTokens: size });
      continue;
    }
    const hasText = parts.some((part) => part.type === 'text');
    // A text kept out of memory is stored already, as the result's only text.
    const storedResultId =
      facts !== undefined ? facts.id : hasText ? options.store.startSave(storedTextOf(parts)) : undefined;
    const result = applyOutputBudget(parts, {
      maxTokens,
      resultId: storedResultId,
      imageTokenCost,
      spilled: facts === undefined ? undefined : parts.map((part) => (part.type === 'text' ? facts : undefined)),
    });
    budgeted.push(storedResultId === undefined ? result : { storedResultId, ...result });
  }
  return budgeted;
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

/** Budgets a single result; see {@link budgetToolResults}. */
export function budgetToolResult(
  parts: readonly ToolResultPart[],
  options: Omit<BudgetToolResultsOptions, 'maxTokensPerTurn'>,
): StoredBudgetedResult {
  const [result] = budgetToolResults([parts], options);
  return result as StoredBudgetedResult;
}
