/**
 * The per-turn budget: the most output of all the tool results of one turn together.
 *
 * A model that calls ten tools at once can receive ten results at the per-result budget each; the turn budget
 * bounds their sum. It shrinks the largest results first, so small results reach the model whole (applied to
 * results in hand by `budgetToolResults`).
 */
import { shareBudget } from './share-budget.js';

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
