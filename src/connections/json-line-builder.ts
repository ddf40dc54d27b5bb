/**
 * Builds a line of JSON text from the pieces it arrives in, taking every string value longer than
 * {@link LONG_STRING_CHARS} out of the text and unescaping it piece by piece as it comes.
 *
 * A 100 MB tool result is one JSON-RPC line whose bulk is one string. Joined and then parsed, it would be held three
 * times at once: the pieces, the joined line and the parsed string. Taken out as it arrives, the line that is
 * parsed is small (each long string replaced by a placeholder, see {@link restoreLongStrings}) and the string is
 * held as its unescaped parts and then once whole.
 */
import { randomBytes } from 'node:crypto';

/** Strings up to this many characters stay in the line; only longer ones are worth taking out. */
export const LONG_STRING_CHARS = 64 * 1024;

const QUOTE = '"';
const BACKSLASH = 0x5c;
/** `\uXXXX`, the longest escape. */
const LONGEST_ESCAPE = 6;

/**
 * Unguessable for this process, so text a server sends can never be taken for a placeholder. A placeholder is a
 * JSON string `"\u0000<nonce>#<index>"`, whose value is the NUL character, the nonce, `#` and the index.
 */
const PLACEHOLDER_NONCE = randomBytes(12).toString('hex');
const PLACEHOLDER_VALUE_PREFIX = `\u0000${PLACEHOLDER_NONCE}#`;
const PLACEHOLDER_IN_TEXT = new RegExp(`"\\\\u0000${PLACEHOLDER_NONCE}#(\\d+)"`, 'g');

/** A line as built: its text, and the long strings taken out of it when there were any. */
export interface BuiltLine {
  text: string;
  longStrings: string[];
}

export class JsonLineBuilder {
  private readonly text: string[] = [];
  private readonly longStrings: string[] = [];
  private inString = false;
  /** The current string as sent, while it is short enough to stay in the text. */
  private raw: string[] = [];
  private rawLength = 0;
  /** The current string unescaped, once it is long enough to be taken out. */
  private parts: string[] | undefined;
  /** An escape cut off at the end of the last piece, read again with the next one. */
  private carry = '';
  /** Set when a string did not unescape: the line is not JSON, and the rest of it is kept as sent. */
  private broken = false;

  add(piece: string): void {
    if (this.broken) {
      this.text.push(piece);
      return;
    }
    const text = this.carry === '' ? piece : this.carry + piece;
    this.carry = '';
    let index = 0;
    while (index < text.length) {
      if (!this.inString) {
        const quote = text.indexOf(QUOTE, index);
        if (quote === -1) {
          this.text.push(index === 0 ? text : text.slice(index));
          return;
        }
        this.text.push(text.slice(index, quote + 1));
        this.inString = true;
        index = quote + 1;
        continue;
      }
      const end = closingQuote(text, index);
      const stop = end === -1 ? cutEscapeStart(text, index) : end;
      this.takeStringText(text.slice(index, stop));
      if (this.broken) {
        this.text.push(text.slice(stop));
        return;
      }
      if (end === -1) {
        this.carry = text.slice(stop);
        return;
      }
      this.closeString();
      index = end + 1;
    }
  }

  /** The whole line. A line that ends inside a string is not JSON; it keeps its text (long parts re-escaped). */
  finish(): BuiltLine {
    if (this.inString) {
      if (this.parts !== undefined) this.text.push(escapeStringText(this.parts.join('')));
      else this.text.push(...this.raw);
    }
    this.text.push(this.carry);
    return { text: this.text.join(''), longStrings: this.longStrings };
  }

  private takeStringText(segment: string): void {
    if (this.broken) {
      this.text.push(segment);
      return;
    }
    if (this.parts === undefined) {
      this.raw.push(segment);
      this.rawLength += segment.length;
      if (this.rawLength <= LONG_STRING_CHARS) return;
      segment = this.raw.join('');
      this.raw = [];
      this.rawLength = 0;
      this.parts = [];
    }
    try {
      this.parts.push(JSON.parse(`"${segment}"`) as string);
    } catch {
      // Not a JSON string (a raw control character, a bad escape): the line will fail to parse as it stands.
      this.broken = true;
      this.text.push(escapeStringText(this.parts.join('')), segment);
      this.parts = undefined;
    }
  }

  private closeString(): void {
    if (this.parts !== undefined) {
      const index = this.longStrings.push(this.parts.join('')) - 1;
      this.parts = undefined;
      this.text.push(`\\u0000${PLACEHOLDER_NONCE}#${index}"`);
    } else {
      this.text.push(...this.raw, QUOTE);
      this.raw = [];
      this.rawLength = 0;
    }
    this.inString = false;
  }
}

/** The index of the quote that ends the string being read from `from`, or -1 when it does not end in `text`. */
function closingQuote(text: string, from: number): number {
  let quote = text.indexOf(QUOTE, from);
  while (quote !== -1) {
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && text.charCodeAt(quote - backslashes - 1) === BACKSLASH) backslashes++;
    // Escapes never straddle `from`: an escape cut off by a piece's end is carried over whole.
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf(QUOTE, quote + 1);
  }
  return -1;
}

/** Where an escape cut off by the end of `text` begins, or `text.length` when none is. */
function cutEscapeStart(text: string, from: number): number {
  const last = text.lastIndexOf('\\');
  if (last < from || last < text.length - LONGEST_ESCAPE) return text.length;
  let start = last;
  while (start - 1 >= from && text.charCodeAt(start - 1) === BACKSLASH) start--;
  // A run of backslashes ends in a complete `\\` pair unless it is odd; the odd one starts an escape.
  if ((last - start) % 2 === 1) return text.length;
  const length = text[last + 1] === 'u' ? LONGEST_ESCAPE : 2;
  return last + length > text.length ? last : text.length;
}

/** `value` as it would appear between the quotes of a JSON string. */
function escapeStringText(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * Puts the long strings taken out of a line back into its parsed value, in place: every string equal to a
 * placeholder, as a value or as a key. Walks with its own stack, so any depth is safe.
 */
export function restoreLongStrings(value: unknown, longStrings: readonly string[]): unknown {
  const restore = (candidate: string): string => {
    if (!candidate.startsWith(PLACEHOLDER_VALUE_PREFIX)) return candidate;
    return longStrings[Number(candidate.slice(PLACEHOLDER_VALUE_PREFIX.length))] ?? candidate;
  };
  if (typeof value === 'string') return restore(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const item = current[index];
        if (typeof item === 'string') current[index] = restore(item);
        else stack.push(item);
      }
      continue;
    }
    const record = current as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.some((key) => key.startsWith(PLACEHOLDER_VALUE_PREFIX))) {
      // A long key: rebuild the object so its keys keep their order.
      const entries = keys.map((key) => [restore(key), record[key]] as const);
      for (const key of keys) delete record[key];
      for (const [key, item] of entries) record[key] = item;
    }
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string') record[key] = restore(item);
      else stack.push(item);
    }
  }
  return value;
}

/** The line as sent (long strings escaped again), for reporting a line that turned out not to be a message. */
export function lineWithLongStrings(line: BuiltLine): string {
  if (line.longStrings.length === 0) return line.text;
  return line.text.replace(PLACEHOLDER_IN_TEXT, (placeholder, index: string) => {
    const value = line.longStrings[Number(index)];
    return value === undefined ? placeholder : JSON.stringify(value);
  });
}
