/** A text shown on one line of a terminal: cleaned, its runs of white space made one space, cut to a length. */
import { stripControlCodes } from './strip-control-codes.js';
import { pairSafeIndex } from './surrogate-pairs.js';

/** `text` on one line, without control codes (or as `clean` shows them), cut to `max` characters with an ellipsis. */
export function cutLine(text: string, max: number, clean = stripControlCodes): string {
  const flat = clean(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, pairSafeIndex(flat, max - 1))}…` : flat;
}
