/**
 * The per-turn budget: the most output of all the tool results of one turn together.
 *
 * A model that calls ten tools at once can receive ten results at the per-result budget each; the turn budget
 * bounds their sum. It shrinks the largest results first, so small results reach the model whole.
 */
import type { ToolResultPart } from './content-parts.js';
import { DEFAULT_IMAGE_TOKEN_COST, estimatePartsTokens } from './linear-token-estimate.js';
import { applyOutputBudget, type BudgetedResult } from './output-budget.js';
import { shareBudget } from './share-budget.js';

export interface TurnBudgetInput {
  /** The result's content as mapped from MCP, before any budget was applied. */
  content: readonly ToolResultPart[];
  /** The stored copy of its full text, for the notice of a cut text (see `applyOutputBudget`). */
  resultId?: string;
}

export interface TurnBudgetOptions {
  imageTokenCost?: number;
  /** A cap for each result as well, e.g. `DEFAULT_RESULT_TOKEN_BUDGET`; default none. */
  maxTokensPerResult?: number;
}

/**
 * The token allowance of each result of a turn: the largest results are cut down to a common cap, chosen as
 * high as `totalMaxTokens` allows, and no result gets more than `maxTokensPerResult`.
 */
export function turnAllowances(
  resultTokens: readonly number[],
  totalMaxTokens: number,
  maxTokensPerResult = Number.POSITIVE_INFINITY,
): number[] {
  return shareBudget(
    resultTokens.map((tokens) => Math.min(tokens, maxTokensPerResult)),
    totalMaxTokens,
  );
}

/**
 * Fits the results of one turn into `totalMaxTokens` together, shrinking the largest first.
 * Pass each result's content before any budget was applied: cutting an already cut text would point its
 * notice at the wrong offsets.
 */
export function applyTurnBudget(
  results: readonly TurnBudgetInput[],
  totalMaxTokens: number,
  options: TurnBudgetOptions = {},
): BudgetedResult[] {
  const imageTokenCost = options.imageTokenCost ?? DEFAULT_IMAGE_TOKEN_COST;
  const sizes = results.map((result) => estimatePartsTokens(result.content, imageTokenCost));
  const allowances = turnAllowances(sizes, totalMaxTokens, options.maxTokensPerResult);
  return results.map((result, index) =>
    applyOutputBudget(result.content, {
      maxTokens: allowances[index] ?? 0,
      resultId: result.resultId,
      imageTokenCost,
    }),
  );
}
