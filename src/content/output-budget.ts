/**
 * The output budget: the most of one tool result the model is shown.
 *
 * A tool can return megabytes; sent whole, one result would fill the model's context (or exceed it) and cost
 * accordingly. Past the budget, a text keeps its head and tail with a notice in between that says how much
 * was left out and how to read the rest from the stored copy; an image is never cut or turned into text — it
 * is either shown whole or replaced by a notice.
 */
import type { SpilledText } from '../connections/spilled-text.js';
import type { ToolResultPart } from './content-parts.js';
import { cutEdges, cutText, DEFAULT_CUT_SUBJECT } from './cut-text.js';
import { base64DecodedSize, formatByteSize, formatCount } from './describe-content.js';
import {
  estimatePartTokens,
  estimateQuarterTokens,
  estimateTokens,
  quartersToTokens,
} from './linear-token-estimate.js';
import { shareBudget } from './share-budget.js';

/** Put between the text parts of a result in its stored copy; notice offsets count it. */
export const STORED_TEXT_SEPARATOR = '\n\n';

export interface OutputBudgetOptions {
  /** The most estimated tokens of this result the model may see. */
  maxTokens: number;
  /**
   * The id of the stored full text ({@link storedTextOf} of these parts) that cut texts point to. Without it a
   * cut text's notice says the full text was not kept.
   */
  resultId?: string;
  /** Tokens charged per image; default by its pixels where its header says them (`estimateImageTokens`). */
  imageTokenCost?: number;
  /**
   * By part index, the texts kept out of memory (see connections/spilled-text.ts): such a part's text is a
   * stand-in, and it is cut from the kept ends of the whole text, which is always cut.
   */
  spilled?: readonly (SpilledText | undefined)[];
  /** What the parts are, as the notices name it: `this tool result` unless told otherwise. */
  subject?: string;
}

/** A kept-out text's cost in quarter tokens, by the budget's estimate (ASCII a quarter, any other unit a token). */
export function spilledQuarters(facts: SpilledText): number {
  return facts.length + 3 * facts.nonAsciiUnits;
}

export interface BudgetedResult {
  content: ToolResultPart[];
  /** Whether anything was cut or left out. */
  cut: boolean;
  /** Estimated tokens of the content as received. */
  originalTokens: number;
  /** Estimated tokens of the content returned, notices included. */
  keptTokens: number;
}

/**
 * The text kept in the result store for a cut result: its text parts joined by {@link STORED_TEXT_SEPARATOR}.
 * Images are not part of it.
 */
export function storedTextOf(parts: readonly ToolResultPart[]): string {
  const texts: string[] = [];
  for (const part of parts) if (part.type === 'text') texts.push(part.text);
  return texts.length === 1 ? (texts[0] as string) : texts.join(STORED_TEXT_SEPARATOR);
}

function imageNotice(part: { mimeType: string; data: string }, maxTokens: number, subject: string): string {
  return `[image left out (${part.mimeType}, ${formatByteSize(base64DecodedSize(part.data))}): it does not fit in ${subject}'s output budget of ${formatCount(maxTokens)} tokens.]`;
}

/**
 * Fits one result's parts into `maxTokens`.
 *
 * Within budget: returned unchanged. Over budget: images are kept in order while they fit, and each one that
 * does not is replaced by a notice; the rest of the budget is shared among the text parts, largest cut
 * first, each cut one keeping its head and tail around a notice. The returned content costs at most
 * `maxTokens` unless the budget is smaller than the notices themselves. Linear in the size of the input.
 */
export function applyOutputBudget(parts: readonly ToolResultPart[], options: OutputBudgetOptions): BudgetedResult {
  const maxTokens = Math.max(0, Math.floor(options.maxTokens));
  const spilled = options.spilled ?? [];
  const quarters = parts.map((part, index) => {
    const facts = spilled[index];
    if (facts !== undefined) return spilledQuarters(facts);
    return part.type === 'text' ? estimateQuarterTokens(part.text) : 0;
  });
  const costs = parts.map((part, index) =>
    part.type === 'text' ? quartersToTokens(quarters[index] ?? 0) : estimatePartTokens(part, options.imageTokenCost),
  );
  const originalTokens = costs.reduce((sum, cost) => sum + cost, 0);
  if (originalTokens <= maxTokens && !spilled.some((facts) => facts !== undefined)) {
    return { content: [...parts], cut: false, originalTokens, keptTokens: originalTokens };
  }

  const content: ToolResultPart[] = [...parts];
  const keptCosts = [...costs];
  let remaining = maxTokens;
  for (const [index, part] of parts.entries()) {
    if (part.type !== 'image') continue;
    const imageCost = costs[index] ?? 0;
    if (imageCost <= remaining) {
      remaining -= imageCost;
      continue;
    }
    const notice = imageNotice(part, maxTokens, options.subject ?? DEFAULT_CUT_SUBJECT);
    content[index] = { type: 'text', text: notice };
    keptCosts[index] = estimateTokens(notice);
    remaining = Math.max(0, remaining - (keptCosts[index] ?? 0));
  }

  const textIndexes = parts.flatMap((part, index) => (part.type === 'text' ? [index] : []));
  const allowances = shareBudget(
    textIndexes.map((index) => costs[index] ?? 0),
    remaining,
  );
  let storedOffset = 0;
  for (const [position, index] of textIndexes.entries()) {
    const part = parts[index] as { type: 'text'; text: string };
    const allowance = allowances[position] ?? 0;
    const facts = spilled[index];
    if (facts !== undefined || (costs[index] ?? 0) > allowance) {
      const cutOptions = {
        maxTokens: allowance,
        quarters: quarters[index] ?? 0,
        resultId: options.resultId,
        storedOffset,
        subject: options.subject,
      };
      const cut = facts !== undefined ? cutEdges(facts, cutOptions) : cutText(part.text, cutOptions);
      content[index] = { type: 'text', text: cut.text };
      keptCosts[index] = cut.tokens;
    }
    storedOffset += (facts?.length ?? part.text.length) + STORED_TEXT_SEPARATOR.length;
  }

  const keptTokens = keptCosts.reduce((sum, cost) => sum + cost, 0);
  return { content, cut: true, originalTokens, keptTokens };
}
