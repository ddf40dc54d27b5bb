/**
 * The output budget of what the resource and skill tools return and of what a server's prompt opens a run with, as
 * the host applies it: content over its budget is cut as a tool result is, its full text kept in the result store
 * for `read_stored_result` to return.
 */
import { budgetToolResult } from '../content/budget-tool-result.js';
import type { ResultStore } from '../content/result-store.js';
import type { ResultBudget } from './resource-host-tools.js';

interface StoredResultBudgetOptions {
  /** Where the full text of a cut read is kept. */
  store: ResultStore;
  /** The most estimated tokens per read, or per prompt; default the content layer's. */
  maxTokensPerResult: number | undefined;
  /** Something was cut and its text stored: the model can now be offered the tool that reads the rest. */
  onStored: () => void;
}

export function storedResultBudget(options: StoredResultBudgetOptions): ResultBudget {
  return (parts, subject) => {
    const budgeted = budgetToolResult(parts, {
      store: options.store,
      maxTokensPerResult: options.maxTokensPerResult,
      subject,
    });
    if (budgeted.cut) options.onStored();
    return budgeted.content;
  };
}
