/**
 * A cheap token estimate for tool output, used by the output budget.
 *
 * A real tokenizer is too slow for results of tens of megabytes and differs per model, so the budget uses a
 * single linear pass over the text instead: an ASCII character counts a quarter of a token (the common
 * "four characters per token" rule for English, code and JSON) and any other UTF-16 code unit counts a whole
 * token, because scripts such as Chinese, Japanese or emoji tokenize at about one token per character and the
 * plain chars/4 rule would underestimate them fourfold. The estimate errs on the side of too many tokens.
 *
 * Internally costs are counted in quarter tokens so that the arithmetic stays in integers. Tool definitions, small
 * and sent on every request, are counted with a real tokenizer instead: see `providers/token-estimate`.
 */
import type { ImagePart, ToolResultPart } from './content-parts.js';
import { readImageDimensions } from './image-dimensions.js';

/**
 * The estimate for an image whose size cannot be read from its header, in tokens. Providers bill images by
 * pixel size (Anthropic about width × height / 750, capped near 1,600 tokens at its recommended maximum size;
 * OpenAI 85 + 170 per 512-pixel tile, 765 for a 1024 × 1024 image), so such an image is charged the upper end.
 */
export const DEFAULT_IMAGE_TOKEN_COST = 1_600;

/** Anthropic's formula, the dearest of the providers': pixels / 750 after its own downscale. */
const PIXELS_PER_IMAGE_TOKEN = 750;
/** Providers scale larger images down before the model sees them (Anthropic: long edge 1,568, ~1.15 megapixels). */
const MAX_BILLED_EDGE = 1_568;
const MAX_BILLED_PIXELS = 1_150_000;

/**
 * The tokens one image costs, by its real pixel size where its header says it: a 16 × 16 icon costs 1 token,
 * a 4,000 × 3,000 photo is billed as the provider's downscaled copy (about 1,530). Unreadable: the fixed cost.
 */
export function estimateImageTokens(part: ImagePart): number {
  const size = readImageDimensions(part.data);
  if (size === undefined) return DEFAULT_IMAGE_TOKEN_COST;
  const pixels = size.width * size.height;
  const scale = Math.min(1, MAX_BILLED_EDGE / Math.max(size.width, size.height), Math.sqrt(MAX_BILLED_PIXELS / pixels));
  return Math.max(1, Math.ceil((pixels * scale * scale) / PIXELS_PER_IMAGE_TOKEN));
}

const QUARTERS_PER_ASCII_CHARACTER = 1;
const QUARTERS_PER_OTHER_CODE_UNIT = 4;

/** The cost of the code unit at `index`, in quarter tokens. */
function quartersAt(text: string, index: number): number {
  return text.charCodeAt(index) < 0x80 ? QUARTERS_PER_ASCII_CHARACTER : QUARTERS_PER_OTHER_CODE_UNIT;
}

/** Shorter texts are passed over faster than their UTF-8 length is asked for. */
const NATIVE_CHECK_FROM_LENGTH = 64;

/** The cost of the whole text in quarter tokens: one linear pass, no allocation. */
export function estimateQuarterTokens(text: string): number {
  // A text whose UTF-8 is as long as itself is all ASCII (every other code unit takes more than one byte): measured
  // natively, many times quicker than the pass below on the long results the budget sees.
  if (text.length >= NATIVE_CHECK_FROM_LENGTH && Buffer.byteLength(text, 'utf8') === text.length) {
    return text.length * QUARTERS_PER_ASCII_CHARACTER;
  }
  let quarters = 0;
  for (let index = 0; index < text.length; index++) {
    quarters += quartersAt(text, index);
  }
  return quarters;
}

/** Estimated tokens for a text: ASCII at 4 characters per token, anything else at 1 code unit per token. */
export function estimateTokens(text: string): number {
  return quartersToTokens(estimateQuarterTokens(text));
}

export function quartersToTokens(quarters: number): number {
  return Math.ceil(quarters / 4);
}

/**
 * Estimated tokens for one content part: its text, or the image's cost — `imageTokenCost` when given, else
 * by its pixels ({@link estimateImageTokens}).
 */
export function estimatePartTokens(part: ToolResultPart, imageTokenCost?: number): number {
  if (part.type === 'text') return estimateTokens(part.text);
  return imageTokenCost ?? estimateImageTokens(part);
}

/** Estimated tokens for a list of parts. */
export function estimatePartsTokens(parts: readonly ToolResultPart[], imageTokenCost?: number): number {
  let total = 0;
  for (const part of parts) total += estimatePartTokens(part, imageTokenCost);
  return total;
}

/**
 * How many leading code units of `text` fit in `maxQuarters`, and what they cost.
 * Scans only the kept prefix, so cutting a huge text costs as much as the part that is kept.
 */
export function prefixWithin(text: string, maxQuarters: number): { end: number; quarters: number } {
  let quarters = 0;
  let end = 0;
  while (end < text.length) {
    const cost = quartersAt(text, end);
    if (quarters + cost > maxQuarters) break;
    quarters += cost;
    end++;
  }
  return { end, quarters };
}

/** Where the longest suffix of `text` (not reaching before `notBefore`) that fits in `maxQuarters` starts. */
export function suffixWithin(
  text: string,
  maxQuarters: number,
  notBefore: number,
): { start: number; quarters: number } {
  let quarters = 0;
  let start = text.length;
  while (start > notBefore) {
    const cost = quartersAt(text, start - 1);
    if (quarters + cost > maxQuarters) break;
    quarters += cost;
    start--;
  }
  return { start, quarters };
}
