/**
 * How deep untrusted JSON may nest. A server's result, a model's arguments or a log message can be nested
 * thousands of levels deep; `JSON.parse` copes, but every recursive walk after it (`JSON.stringify`,
 * `structuredClone`, redaction, fingerprints) overflows the stack and would end the run. So each value from
 * outside is measured here, without recursion, and one nested deeper than {@link MAX_JSON_DEPTH} is refused
 * where it enters; the walks themselves stop at the same depth.
 */

/** The deepest nesting of objects and arrays accepted from a server or a model. Real payloads stay far below. */
export const MAX_JSON_DEPTH = 128;

/** Thrown where a too-deep value cannot be turned into something smaller; its message names what was too deep. */
export class JsonTooDeepError extends RangeError {
  constructor(what: string, maxDepth = MAX_JSON_DEPTH) {
    super(describeTooDeep(what, maxDepth));
    this.name = 'JsonTooDeepError';
  }
}

/** `the tool result is nested deeper than 128 levels`, for messages to the model and the user. */
export function describeTooDeep(what: string, maxDepth = MAX_JSON_DEPTH): string {
  return `${what} is nested deeper than ${maxDepth} levels`;
}

/**
 * Whether `value` nests objects and arrays deeper than `maxDepth` (a scalar is depth 0, `[]` depth 1). Walks with
 * its own stack, so any depth is measured safely; stops at the first branch that is too deep. A cycle counts as
 * too deep.
 */
export function exceedsJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const inner = depth + 1;
    if (inner > maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: inner });
    }
  }
  return false;
}

const OPENING_BRACKETS = ['{', '['] as const;

/**
 * Whether the text holds at most `limit` opening brackets in all, strings included: then none can be opened deeper
 * than `limit`. Counted with `indexOf`, many times quicker than the scans below on a long text (a file's content as an
 * argument, a long result), which are left for texts with more brackets than that.
 */
function opensAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of OPENING_BRACKETS) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      count++;
      if (count > limit) return false;
    }
  }
  return true;
}

/**
 * Whether JSON text opens more than `maxDepth` brackets at once, read in one pass without parsing (brackets inside
 * strings do not count). Lets text be refused before `JSON.parse` builds a value nothing else could walk.
 */
export function textExceedsJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  return !opensAtMost(text, maxDepth) && offsetTooDeep(text, maxDepth) !== -1;
}

/** Where JSON text first opens its bracket number `maxDepth + 1` at once (brackets in strings do not count), or -1. */
export function offsetTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > maxDepth) return index;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return -1;
}

/**
 * JSON text with every object or array that opens deeper than `maxDepth` replaced by `null`, read in one pass
 * (brackets inside strings do not count); undefined when nothing is that deep. Parsing a line nested 100,000 levels
 * takes `JSON.parse` a third of a second, growing faster than the line; the cut text keeps what a refusal needs
 * (the id and method of a message) at the cost of one scan. Text that breaks off while nested stays cut off, so it
 * still fails to parse.
 */
export function cutTooDeepText(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  if (opensAtMost(text, maxDepth)) return undefined;
  let depth = 0;
  let inString = false;
  let cutFrom = -1;
  let copiedTo = 0;
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > maxDepth && cutFrom === -1) cutFrom = index;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
      if (depth === maxDepth && cutFrom !== -1) {
        pieces.push(text.slice(copiedTo, cutFrom), 'null');
        copiedTo = index + 1;
        cutFrom = -1;
      }
    }
  }
  if (pieces.length === 0 && cutFrom === -1) return undefined;
  pieces.push(text.slice(copiedTo, cutFrom === -1 ? text.length : cutFrom));
  return pieces.join('');
}

/** `JSON.parse` that refuses text nested deeper than `maxDepth` with a {@link JsonTooDeepError}. */
export function parseJsonWithinDepth(text: string, what = 'the JSON value', maxDepth = MAX_JSON_DEPTH): unknown {
  if (textExceedsJsonDepth(text, maxDepth)) throw new JsonTooDeepError(what, maxDepth);
  return JSON.parse(text);
}

/**
 * `JSON.stringify` for a value from outside: one nested deeper than `maxDepth` gives `placeholder` (default: a
 * JSON string saying so) instead of a stack overflow.
 */
export function stringifyJsonWithinDepth(
  value: unknown,
  what = 'the value',
  placeholder = JSON.stringify(`[${describeTooDeep(what)}]`),
): string | undefined {
  if (exceedsJsonDepth(value)) return placeholder;
  return JSON.stringify(value);
}

/**
 * {@link textExceedsJsonDepth} for UTF-8 bytes arriving in pieces (an HTTP body, an event stream): fed each piece in
 * turn, it says once the brackets opened at once pass `maxDepth`, so a response can be refused before anything
 * parses it. Bytes of multi-byte characters never equal a quote, a backslash or a bracket, so they need no decoding.
 */
export class JsonDepthGauge {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** While kept (see {@link keepOutline}): the pieces read so far of the value's outline. */
  private outline?: Uint8Array[];
  /** How deep the outline goes: a message's members and theirs, one level more in a batch. */
  private outlineDepth = 2;
  /** While watched (see {@link watchTopLevelKey}): the key's bytes, and what is known of it in the current value. */
  private watchedKey?: Uint8Array;
  private topLevelObject = false;
  /** Where the current string began, when it may be the key: in `keyPiece`, at `keyFrom`. */
  private keyPiece?: Uint8Array;
  private keyFrom = 0;
  /** The key was just read: the next byte but blanks tells whether it names a member (a `:`). */
  private afterKey = false;
  private keySeen = false;

  constructor(private readonly maxDepth = MAX_JSON_DEPTH) {}

  /**
   * Keeps the value's outline from now on: its bytes but those of what nests deeper than a message's members'
   * members (a batch's, one level deeper), which stay as empty brackets, `{"id":7,"result":{"content":[]}}`. Enough
   * to tell whether a message has the shape of a JSON-RPC answer without decoding and parsing a large one whole.
   */
  keepOutline(): void {
    this.outline = [];
  }

  /** Keeps no outline from now on: nobody will read it. */
  stopOutline(): void {
    this.outline = undefined;
  }

  /** The outline read so far, as bytes to decode (see {@link keepOutline}). */
  outlineBytes(): Uint8Array[] {
    return this.outline ?? [];
  }

  /**
   * Watches from now on whether the value is an object with a member named `key` at its top, as the bytes go by, so
   * that a message need not be parsed to know it is a request or a notification. Only a key written without escapes,
   * in one piece, is seen: one missed only costs the parse.
   */
  watchTopLevelKey(key: string): void {
    this.watchedKey = new TextEncoder().encode(key);
  }

  /** Whether the value read so far has the watched key as a member at its top (see {@link watchTopLevelKey}). */
  sawTopLevelKey(): boolean {
    return this.keySeen;
  }

  /** Reads `bytes[from, to)`; true when the nesting has passed the limit (and stays true until {@link reset}). */
  feed(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
    if (this.depth > this.maxDepth) return true;
    const outline = this.outline;
    // Where the outline's current run of bytes began in this piece; -1 while inside what it leaves out.
    let keptFrom = outline !== undefined && this.depth <= this.outlineDepth ? from : -1;
    for (let index = from; index < to; index++) {
      const code = bytes[index]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === 0x5c) this.escaped = true;
        else if (code === 0x22) {
          this.inString = false;
          if (this.keyPiece === bytes) this.afterKey = this.isWatchedKey(bytes, index);
          this.keyPiece = undefined;
        }
        continue;
      }
      if (this.afterKey && code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) {
        this.afterKey = false;
        if (code === 0x3a) this.keySeen = true;
      }
      if (code === 0x22) {
        this.inString = true;
        if (this.depth === 1 && this.topLevelObject) {
          this.keyPiece = bytes;
          this.keyFrom = index + 1;
        }
      } else if (code === 0x5b || code === 0x7b) {
        this.depth++;
        if (this.depth > this.maxDepth) return true;
        if (this.depth === 1) this.topLevelObject = code === 0x7b && this.watchedKey !== undefined;
        if (outline === undefined) continue;
        if (this.depth === 1) this.outlineDepth = code === 0x5b ? 3 : 2;
        else if (this.depth === this.outlineDepth + 1 && keptFrom !== -1) {
          outline.push(bytes.subarray(keptFrom, index + 1));
          keptFrom = -1;
        }
      } else if (code === 0x5d || code === 0x7d) {
        this.depth--;
        if (outline !== undefined && keptFrom === -1 && this.depth === this.outlineDepth) keptFrom = index;
      }
    }
    if (outline !== undefined && keptFrom !== -1 && keptFrom < to) outline.push(bytes.subarray(keptFrom, to));
    return false;
  }

  /**
   * A new line of an event stream's `data`: JSON cannot hold a raw line break inside a string, so none is open; a
   * quote in another field (an event's `id`) cannot hide brackets past its own line.
   */
  newLine(): void {
    this.inString = false;
    this.escaped = false;
    // The lines of an event's data are joined by line breaks, which keep apart what they part.
    if (this.outline !== undefined && this.depth <= this.outlineDepth) this.outline.push(LINE_BREAK);
  }

  /** Whether the string of `bytes` that began at `keyFrom` and ends at `end` is the watched key. */
  private isWatchedKey(bytes: Uint8Array, end: number): boolean {
    const key = this.watchedKey!;
    if (end - this.keyFrom !== key.length) return false;
    for (let at = 0; at < key.length; at++) if (bytes[this.keyFrom + at] !== key[at]) return false;
    return true;
  }

  /** Starts over, for the next message. */
  reset(): void {
    this.depth = 0;
    this.topLevelObject = false;
    this.keyPiece = undefined;
    this.afterKey = false;
    this.keySeen = false;
    this.newLine();
    if (this.outline !== undefined) this.outline = [];
  }
}

const LINE_BREAK = new Uint8Array([0x0a]);
