/**
 * Tool poisoning hides instructions for the model where a person reviewing the tool does not see them: escape
 * sequences that rewrite the terminal, zero-width and direction-changing characters, `<IMPORTANT>` blocks, text
 * that steers the model towards another server's tools, HTML comments, and plain words addressed to the model
 * ("ignore previous instructions", "read ~/.ssh/id_rsa", "do not tell the user"). This module finds such content so
 * the approval view can flag it, and shows text raw (invisible characters made visible) without ever changing the
 * stored text: what the user approves is exactly what the model gets.
 */

type HiddenContentKind =
  | 'ansi-escape'
  | 'control-character'
  | 'invisible-character'
  | 'bidi-control'
  | 'instruction-tag'
  | 'html-comment'
  | 'instruction-phrase'
  | 'other-server-tool'
  /** Past a scan budget (length, strings, depth): "could not check", which counts as a finding, never as clean. */
  | 'unchecked';

export interface HiddenContentFlag {
  kind: HiddenContentKind;
  /** What was found, in words, with invisible characters named rather than printed. */
  message: string;
  /** UTF-16 offset of the first occurrence in the description. */
  index: number;
  /** How many occurrences this flag stands for. */
  count: number;
  /**
   * Where in the tool definition, when not in the description: `title`, `inputSchema.properties.path.description`.
   * `index` is then an offset into that string.
   */
  location?: string;
  /** The string at `location`, shown raw (shortened when long), so the view can show what hides there. */
  excerpt?: string;
}

import { DIRECTION_CONTROL } from '../text/direction-controls.js';
import { isInvisibleCharacter, isVisibleControl, showInvisibleCharacters } from '../text/invisible-characters.js';
import { INSTRUCTION_PHRASES } from './instruction-phrases.js';

const CHARACTER_NAMES = new Map<number, string>([
  [0x00ad, 'SOFT HYPHEN'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x2060, 'WORD JOINER'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x1b, 'ESCAPE'],
  [0x0d, 'CARRIAGE RETURN'],
]);
/** Tags that address the model rather than describe the tool. */
const INSTRUCTION_TAG =
  /<\s*\/?\s*(important|system|system[-_ ]?prompt|instructions?|hidden|secret|admin|assistant|critical|override|note[-_ ]?to[-_ ]?(?:ai|assistant|model))\s*(?:\s[^<>]*)?>|<\|[A-Za-z_]+\|>|\[\/?INST\]/giu;
const ANSI_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal control sequences is the point.
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])?|\u009b[0-?]*[ -/]*[@-~]/gu;

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/gu;
/** Longest text scanned; past it the verdict is "could not check". */
const MAX_SCANNED_CHARACTERS = 100_000;

/**
 * The text with every invisible or terminal-controlling character written as an escape (`\x1b`, `\u200b`,
 * `\u{e0041}`), so printing it cannot move the cursor, recolour the screen or hide anything. Tabs and newlines stay.
 */
export const showRaw = showInvisibleCharacters;

function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).toUpperCase().padStart(width, '0');
}

function describeCodePoint(codePoint: number): string {
  const name = CHARACTER_NAMES.get(codePoint);
  return `U+${hex(codePoint, 4)}${name === undefined ? '' : ` ${name}`}`;
}

function classifyCharacter(
  character: string,
  codePoint: number,
  next: string | undefined,
): HiddenContentKind | undefined {
  if (codePoint === 0x1b || codePoint === 0x9b) return 'ansi-escape';
  if (codePoint === 0x0d) return next === '\n' ? undefined : 'control-character';
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) {
    return isVisibleControl(codePoint) ? undefined : 'control-character';
  }
  if (DIRECTION_CONTROL.test(character)) return 'bidi-control';
  if (codePoint >= 0xfe00 && codePoint <= 0xfe0f) return undefined; // emoji presentation selectors are ordinary
  if (isInvisibleCharacter(character)) return 'invisible-character';
  return undefined;
}

const CHARACTER_KIND_WORDS: Record<string, string> = {
  'control-character': 'control character',
  'invisible-character': 'invisible character',
  'bidi-control': 'text-direction control character',
};

/**
 * Flags in `description`. `otherServerToolNames`: names of tools on *other* servers (namespaced names, and original
 * names that look like identifiers rather than ordinary words); a description naming one is flagged, because a
 * tool has no business steering the model towards another server's tools. Names shorter than 3 characters are
 * ignored.
 */
export function findHiddenContent(whole: string, otherServerToolNames: readonly string[] = []): HiddenContentFlag[] {
  const flags: HiddenContentFlag[] = [];
  const description = whole.length > MAX_SCANNED_CHARACTERS ? whole.slice(0, MAX_SCANNED_CHARACTERS) : whole;
  if (description !== whole) {
    flags.push({
      kind: 'unchecked',
      message: `could not check: the text is ${whole.length.toLocaleString('en-US')} characters long and only the first ${MAX_SCANNED_CHARACTERS.toLocaleString('en-US')} were scanned`,
      index: MAX_SCANNED_CHARACTERS,
      count: 1,
    });
  }
  const ansi = [...description.matchAll(ANSI_SEQUENCE)];
  if (ansi.length > 0) {
    const first = ansi[0]!;
    flags.push({
      kind: 'ansi-escape',
      message: `${ansi.length} terminal escape sequence${ansi.length === 1 ? '' : 's'} (e.g. ${showRaw(first[0])}), which can recolour or rewrite what the terminal shows`,
      index: first.index ?? 0,
      count: ansi.length,
    });
  }

  const byCharacter = new Map<string, HiddenContentFlag>();
  let index = 0;
  const characters = [...description];
  for (let position = 0; position < characters.length; position += 1) {
    const character = characters[position]!;
    const codePoint = character.codePointAt(0)!;
    const kind = classifyCharacter(character, codePoint, characters[position + 1]);
    if (kind !== undefined && kind !== 'ansi-escape') {
      const key = `${kind}:${codePoint}`;
      const existing = byCharacter.get(key);
      if (existing === undefined) {
        byCharacter.set(key, { kind, message: describeCodePoint(codePoint), index, count: 1 });
      } else {
        existing.count += 1;
      }
    }
    index += character.length;
  }
  for (const flag of byCharacter.values()) {
    const words = CHARACTER_KIND_WORDS[flag.kind] ?? flag.kind;
    flag.message = `${flag.count} ${words}${flag.count === 1 ? '' : 's'} ${flag.message}, first at character ${flag.index}`;
    flags.push(flag);
  }

  const tags = new Map<string, HiddenContentFlag>();
  for (const match of description.matchAll(INSTRUCTION_TAG)) {
    const tag = match[0].replace(/\s+/g, ' ');
    const key = tag.toLowerCase().replace('/', '');
    const existing = tags.get(key);
    if (existing === undefined) {
      tags.set(key, { kind: 'instruction-tag', message: '', index: match.index ?? 0, count: 1 });
    } else existing.count += 1;
  }
  for (const [key, flag] of tags) {
    flag.message = `an instruction-style tag ${showRaw(key)} addressed to the model, not a description of the tool`;
    flags.push(flag);
  }

  const comments = [...description.matchAll(HTML_COMMENT)];
  if (comments.length > 0) {
    flags.push({
      kind: 'html-comment',
      message: `${comments.length} HTML comment${comments.length === 1 ? '' : 's'} (<!-- … -->), hidden wherever the text is rendered`,
      index: comments[0]!.index ?? 0,
      count: comments.length,
    });
  }
  for (const phrase of INSTRUCTION_PHRASES) {
    const match = phrase.pattern.exec(description);
    if (match === null) continue;
    flags.push({
      kind: 'instruction-phrase',
      message: `${phrase.what}: "${showRaw(shorten(match[0]))}"`,
      index: match.index,
      count: 1,
    });
  }

  const lower = description.toLowerCase();
  for (const name of new Set(otherServerToolNames)) {
    if (name.length < 3) continue;
    const found = findWholeName(lower, name.toLowerCase());
    if (found >= 0) {
      flags.push({
        kind: 'other-server-tool',
        message: `names ${showRaw(name)}, a tool of another server`,
        index: found,
        count: 1,
      });
    }
  }
  return flags.sort((left, right) => left.index - right.index);
}

function shorten(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 117)}…`;
}

const NAME_CHARACTER = /[A-Za-z0-9_-]/;

/** The offset of `name` in `text` where it is not part of a longer identifier, or -1. */
function findWholeName(text: string, name: string): number {
  let from = 0;
  while (from <= text.length) {
    const found = text.indexOf(name, from);
    if (found < 0) return -1;
    const before = text[found - 1];
    const after = text[found + name.length];
    const boundedBefore = before === undefined || !NAME_CHARACTER.test(before);
    const boundedAfter = after === undefined || !NAME_CHARACTER.test(after);
    if (boundedBefore && boundedAfter) return found;
    from = found + 1;
  }
  return -1;
}

/** A short line per flag, for views and notices. */
export function describeHiddenContent(flags: readonly HiddenContentFlag[]): string[] {
  return flags.map(
    (flag) => `${flag.kind}${flag.location === undefined ? '' : ` in ${flag.location}`}: ${flag.message}`,
  );
}
