/**
 * Cuts one long text to a token allowance, keeping its head and its tail and putting a notice in the middle.
 *
 * The beginning of a tool's output usually says what it is and the end how it finished (a summary, an
 * error, a total), so both are kept. The notice says how much was left out and how to read it through the
 * `read_stored_result` host tool. Only the kept characters are scanned, so a 50 MB text costs no more to cut
 * than a 100 KB one once its size is known.
 */

import { isHighSurrogate, isLowSurrogate } from '../text/surrogate-pairs.js';
import { formatCount } from './describe-content.js';
import { estimateQuarterTokens, prefixWithin, quartersToTokens, suffixWithin } from './linear-token-estimate.js';
import { READ_STORED_RESULT_TOOL_NAME } from './read-stored-result-tool.js';
import { MAX_STORED_READ_LENGTH } from './result-store.js';

interface CutNoticeFacts {
  omittedCharacters: number;
  omittedTokens: number;
  /** The stored copy of the full text, if one was kept. */
  resultId?: string;
  /** Where the left-out characters start in the stored text. */
  readOffset: number;
  subject: string;
}

/** The notice that replaces the middle of a cut text, blank lines around it included. */
function cutNotice(facts: CutNoticeFacts): string {
  const what = `[… ${formatCount(facts.omittedCharacters)} characters (about ${formatCount(facts.omittedTokens)} tokens) left out here to keep ${facts.subject} within its output budget`;
  if (facts.resultId === undefined) return `\n\n${what}; the full text was not kept.]\n\n`;
  const length = Math.min(facts.omittedCharacters, MAX_STORED_READ_LENGTH);
  return (
    `\n\n${what}. To read them, call the tool \`${READ_STORED_RESULT_TOOL_NAME}\` with id "${facts.resultId}", ` +
    `offset ${facts.readOffset}, length ${length}; call it again with a higher offset for more.]\n\n`
  );
}

export interface CutTextResult {
  text: string;
  /** Estimated tokens of the returned text, notice included. */
  tokens: number;
  omittedCharacters: number;
  omittedTokens: number;
}

export interface CutTextOptions {
  /** The most tokens the returned text may cost, notice included (unless the notice alone costs more). */
  maxTokens: number;
  /** The text's cost in quarter tokens, when already known; saves a pass over a huge text. */
  quarters?: number;
  resultId?: string;
  /** Where this text starts in the stored full result, so the notice's offset points at the right place. */
  storedOffset?: number;
  /** What the text is part of, as the notice names it; default {@link DEFAULT_CUT_SUBJECT}. */
  subject?: string;
}

/** What a cut text is part of, unless told otherwise. */
export const DEFAULT_CUT_SUBJECT = 'this tool result';

/** Keeps the head and tail of `text` within `maxTokens`, half each, with a notice between them. */
export function cutText(text: string, options: CutTextOptions): CutTextResult {
  return cutEdges({ head: text, tail: text, length: text.length }, options);
}

/**
 * A text known by its two ends: `head` is its first characters, `tail` its last, `length` the whole length.
 * For a text in memory both are the text itself; for one kept out of memory, what was kept of each end.
 */
interface TextEdges {
  head: string;
  tail: string;
  length: number;
}

/**
 * As {@link cutText}, for a text known by its ends: nothing beyond them is kept, however large the allowance
 * (`quarters`, the whole text's cost, must then be given).
 */
export function cutEdges(text: TextEdges, options: CutTextOptions): CutTextResult {
  const totalQuarters = options.quarters ?? estimateQuarterTokens(text.head);
  const storedOffset = options.storedOffset ?? 0;
  const subject = options.subject ?? DEFAULT_CUT_SUBJECT;
  // The numbers in the real notice are no longer than these, so this bounds the notice's cost.
  const worstNotice = cutNotice({
    omittedCharacters: text.length,
    omittedTokens: text.length,
    resultId: options.resultId,
    readOffset: storedOffset + text.length,
    subject,
  });
  const noticeAllowance = quartersToTokens(estimateQuarterTokens(worstNotice));
  const contentQuarters = Math.max(0, options.maxTokens - noticeAllowance) * 4;
  // Where the tail string starts in the whole text.
  const tailOffset = text.length - text.tail.length;

  const head = prefixWithin(text.head, Math.floor(contentQuarters / 2));
  const tail = suffixWithin(text.tail, contentQuarters - head.quarters, Math.max(0, head.end - tailOffset));
  let headEnd = head.end;
  let headQuarters = head.quarters;
  let tailStart = tailOffset + tail.start;
  let tailQuarters = tail.quarters;
  const tailCodeAt = (index: number) => text.tail.charCodeAt(index - tailOffset);
  // Never split a surrogate pair: a lone half is not a character and some APIs reject it.
  if (headEnd > 0 && headEnd < text.length && isHighSurrogate(text.head.charCodeAt(headEnd - 1))) {
    headEnd--;
    headQuarters -= estimateQuarterTokens(text.head.charAt(headEnd));
  }
  if (tailStart < text.length && tailStart > headEnd && isLowSurrogate(tailCodeAt(tailStart))) {
    tailQuarters -= estimateQuarterTokens(text.tail.charAt(tailStart - tailOffset));
    tailStart++;
  }

  const omittedCharacters = tailStart - headEnd;
  const omittedTokens = quartersToTokens(totalQuarters - headQuarters - tailQuarters);
  const notice = cutNotice({
    omittedCharacters,
    omittedTokens,
    resultId: options.resultId,
    readOffset: storedOffset + headEnd,
    subject,
  });
  const kept = text.head.slice(0, headEnd) + notice + text.tail.slice(tailStart - tailOffset);
  const tokens = quartersToTokens(headQuarters + tailQuarters + estimateQuarterTokens(notice));
  return { text: kept, tokens, omittedCharacters, omittedTokens };
}
