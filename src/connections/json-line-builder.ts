/**
 * Builds a line of JSON text from the pieces it arrives in, taking every string value longer than
 * {@link LONG_STRING_CHARS} out of the text and unescaping it piece by piece as it comes.
 *
 * A 100 MB tool result is one JSON-RPC line whose bulk is one string. Joined and then parsed, it would be held three
 * times at once: the pieces, the joined line and the parsed string. Taken out as it arrives, the line that is
 * parsed is small (each long string replaced by a placeholder, see {@link restoreLongStrings}) and the string is
 * held as its unescaped parts and then once whole.
 *
 * Given somewhere to write (`openSpill`), a tool result's text (`result.content[i].text`) longer than
 * {@link SPILL_MIN_CHARS} is not held at all: it is written out as it arrives and only its two ends are kept (see
 * spilled-text.ts). To know where a string is, the builder follows the line's objects, arrays and keys as it reads.
 */
import { randomBytes } from 'node:crypto';
import { setOwnProperty } from '../json/own-property.js';
import { isHighSurrogate } from '../text/surrogate-pairs.js';
import {
  type OpenSpill,
  rememberSpilledText,
  SPILL_KEPT_EDGE_CHARS,
  SPILL_MIN_CHARS,
  type SpilledText,
  type SpillWriter,
  spilledStandIn,
} from './spilled-text.js';

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

export interface JsonLineBuilderOptions {
  /** Where a tool result's very long text is written; without it every string is kept in memory. */
  openSpill?: OpenSpill;
  /** Texts longer than this are written out; default {@link SPILL_MIN_CHARS}. */
  spillMinChars?: number;
  /** Characters of each end of a written-out text kept in memory; default {@link SPILL_KEPT_EDGE_CHARS}. */
  keptEdgeChars?: number;
}

/** An object or array the builder is inside; for an object, its latest key and whether a key comes next. */
interface Frame {
  array: boolean;
  key?: string;
  expectKey: boolean;
}

/** Only the first levels are followed (a tool result's text is at the fourth); deeper ones are only counted. */
const FOLLOWED_DEPTH = 4;
const TOOL_TEXT_PATH = ['result', 'content', undefined, 'text'] as const;

/** A text being written out, with what is kept of it. */
interface Spill {
  writer: SpillWriter;
  head: string;
  tail: string[];
  tailLength: number;
  length: number;
  nonAsciiUnits: number;
  utf8Bytes: number;
  /** A high surrogate that ended the last piece: counted with the piece that brings its other half. */
  unpairedEnd: string;
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
  private partsLength = 0;
  /** Set when a string did not unescape: the line is not JSON, and the rest of it is kept as sent. */
  private broken = false;
  private readonly frames: Frame[] = [];
  /** Levels deeper than the followed ones. */
  private unfollowedDepth = 0;
  /** Whether the string being read is an object's key. */
  private stringIsKey = false;
  /** Whether the string being read is a tool result's text, and so may be written out. */
  private stringMaySpill = false;
  private spill: Spill | undefined;
  private readonly spillMinChars: number;
  private readonly keptEdgeChars: number;

  constructor(private readonly options: JsonLineBuilderOptions = {}) {
    this.spillMinChars = options.spillMinChars ?? SPILL_MIN_CHARS;
    this.keptEdgeChars = options.keptEdgeChars ?? SPILL_KEPT_EDGE_CHARS;
  }

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
          this.followStructure(text, index, text.length);
          this.text.push(index === 0 ? text : text.slice(index));
          return;
        }
        this.followStructure(text, index, quote);
        this.text.push(text.slice(index, quote + 1));
        this.openString();
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

  /** The line will not be used (it was too long): a text being written out is deleted. */
  discard(): void {
    this.spill?.writer.abort();
    this.spill = undefined;
  }

  /** The whole line. A line that ends inside a string is not JSON; it keeps its text (long parts re-escaped). */
  finish(): BuiltLine {
    if (this.inString) {
      if (this.spill !== undefined) this.text.push(escapeStringText(this.abandonSpill()));
      else if (this.parts !== undefined) this.text.push(escapeStringText(this.parts.join('')));
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
    if (this.parts === undefined && this.spill === undefined) {
      this.raw.push(segment);
      this.rawLength += segment.length;
      if (this.rawLength <= LONG_STRING_CHARS) return;
      segment = this.raw.join('');
      this.raw = [];
      this.rawLength = 0;
      this.parts = [];
      this.partsLength = 0;
    }
    let unescaped: string;
    try {
      unescaped = JSON.parse(`"${segment}"`) as string;
    } catch {
      // Not a JSON string (a raw control character, a bad escape): the line will fail to parse as it stands.
      this.broken = true;
      const sofar = this.spill !== undefined ? this.abandonSpill() : (this.parts ?? []).join('');
      this.text.push(escapeStringText(sofar), segment);
      this.parts = undefined;
      return;
    }
    if (this.spill !== undefined) {
      this.spillPart(this.spill, unescaped);
      return;
    }
    const parts = this.parts as string[];
    parts.push(unescaped);
    this.partsLength += unescaped.length;
    if (this.stringMaySpill && this.partsLength > this.spillMinChars) this.startSpill(parts);
  }

  /** Writes out what was read of the text so far and from now on everything that follows, keeping its two ends. */
  private startSpill(parts: string[]): void {
    this.stringMaySpill = false;
    const writer = this.options.openSpill?.();
    if (writer === undefined) return;
    let head = '';
    for (const part of parts) {
      if (head.length >= this.keptEdgeChars) break;
      head += part;
    }
    const spill: Spill = {
      writer,
      head: head.slice(0, this.keptEdgeChars),
      tail: [],
      tailLength: 0,
      length: 0,
      nonAsciiUnits: 0,
      utf8Bytes: 0,
      unpairedEnd: '',
    };
    this.spill = spill;
    this.parts = undefined;
    this.partsLength = 0;
    for (const part of parts) this.spillPart(spill, part);
  }

  private spillPart(spill: Spill, part: string): void {
    spill.writer.write(part);
    spill.length += part.length;
    let counted = spill.unpairedEnd + part;
    spill.unpairedEnd = isHighSurrogate(counted.charCodeAt(counted.length - 1)) ? counted.slice(-1) : '';
    if (spill.unpairedEnd !== '') counted = counted.slice(0, -1);
    const bytes = Buffer.byteLength(counted, 'utf8');
    spill.utf8Bytes += bytes;
    if (bytes !== counted.length) spill.nonAsciiUnits += countNonAscii(counted);
    spill.tail.push(part);
    spill.tailLength += part.length;
    while (spill.tail.length > 1 && spill.tailLength - (spill.tail[0] as string).length >= this.keptEdgeChars) {
      spill.tailLength -= (spill.tail.shift() as string).length;
    }
  }

  /** Deletes the written-out text; what is left of it in memory is its head. */
  private abandonSpill(): string {
    const head = this.spill?.head ?? '';
    this.discard();
    return head;
  }

  private closeString(): void {
    if (this.spill !== undefined) {
      const spill = this.spill;
      this.spill = undefined;
      spill.writer.end();
      const facts: SpilledText = {
        id: spill.writer.id,
        length: spill.length,
        nonAsciiUnits: spill.nonAsciiUnits + spill.unpairedEnd.length,
        utf8Bytes: spill.utf8Bytes + Buffer.byteLength(spill.unpairedEnd, 'utf8'),
        head: spill.head,
        tail: spill.tail.join('').slice(-this.keptEdgeChars),
      };
      const standIn = spilledStandIn(facts);
      rememberSpilledText(standIn, facts);
      const index = this.longStrings.push(standIn) - 1;
      this.text.push(`\\u0000${PLACEHOLDER_NONCE}#${index}"`);
    } else if (this.parts !== undefined) {
      const index = this.longStrings.push(this.parts.join('')) - 1;
      this.parts = undefined;
      this.partsLength = 0;
      this.text.push(`\\u0000${PLACEHOLDER_NONCE}#${index}"`);
    } else {
      if (this.stringIsKey) {
        const frame = this.frames.at(-1);
        if (frame !== undefined && this.unfollowedDepth === 0) frame.key = this.raw.join('');
      }
      this.text.push(...this.raw, QUOTE);
      this.raw = [];
      this.rawLength = 0;
    }
    this.inString = false;
  }

  /** A string begins: is it a key, and is it a tool result's text? */
  private openString(): void {
    this.inString = true;
    const frame = this.unfollowedDepth === 0 ? this.frames.at(-1) : undefined;
    this.stringIsKey = frame !== undefined && !frame.array && frame.expectKey;
    // Set again when the key ends; a key too long to keep names nothing that matters here.
    if (this.stringIsKey && frame !== undefined) frame.key = undefined;
    this.stringMaySpill =
      this.options.openSpill !== undefined &&
      !this.stringIsKey &&
      this.unfollowedDepth === 0 &&
      this.frames.length === FOLLOWED_DEPTH &&
      this.frames.every((each, level) => {
        const key = TOOL_TEXT_PATH[level];
        return key === undefined ? each.array : !each.array && each.key === key;
      });
  }

  /** Follows objects, arrays and keys in `text` from `from` to `to`, outside strings. */
  private followStructure(text: string, from: number, to: number): void {
    for (let index = from; index < to; index++) {
      const code = text.charCodeAt(index);
      if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (this.unfollowedDepth > 0 || this.frames.length >= FOLLOWED_DEPTH) this.unfollowedDepth++;
        else this.frames.push({ array: code === OPEN_BRACKET, expectKey: code === OPEN_BRACE });
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (this.unfollowedDepth > 0) this.unfollowedDepth--;
        else this.frames.pop();
      } else if (this.unfollowedDepth === 0 && (code === COLON || code === COMMA)) {
        const frame = this.frames.at(-1);
        if (frame !== undefined && !frame.array) frame.expectKey = code === COMMA;
      }
    }
  }
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function countNonAscii(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) >= 0x80) count++;
  return count;
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
      for (const [key, item] of entries) setOwnProperty(record, key, item);
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
