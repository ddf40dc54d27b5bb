/**
 * Characters that show as nothing, or as something else, wherever text is laid out: controls (but tab and newline),
 * format characters (zero-width, direction, tag characters), blank letters, variation selectors and line separators.
 * Written as escapes (`\x1b`, `\u202e`, `\u{e0041}`), text shows every one of them and rewrites nothing around it.
 * No imports: the web UI uses this module too.
 */

/** Letters, fillers and the blank braille pattern: they render as nothing although they are not format characters. */
const BLANK_LETTERS = new Set([0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x2800, 0x3164, 0xffa0]);
const FORMAT_CHARACTER = /\p{Cf}/u;

/** Tab and newline: controls that show as what they are. */
export function isVisibleControl(codePoint: number): boolean {
  return codePoint === 0x09 || codePoint === 0x0a;
}

/** Whether `character` (one code point) is one `showInvisibleCharacters` escapes. */
export function isInvisibleCharacter(character: string): boolean {
  const codePoint = character.codePointAt(0)!;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) return !isVisibleControl(codePoint);
  if (codePoint === 0x2028 || codePoint === 0x2029) return true;
  if (BLANK_LETTERS.has(codePoint)) return true;
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef)) return true;
  return FORMAT_CHARACTER.test(character);
}

/** Spaces other than the ASCII one (no-break, ideographic, thin, …): each looks like it, or like nothing. */
const LOOK_ALIKE_SPACE = /(?! )\p{Zs}/u;

/** Whether `character` (one code point) is a space that is not the ASCII one, which it looks like. */
export function isLookAlikeSpace(character: string): boolean {
  return LOOK_ALIKE_SPACE.test(character);
}

function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).padStart(width, '0');
}

/**
 * A quick test for text that may hold an invisible character other than a control or a variation selector (format
 * characters, line separators, blank letters), built from the same sets as {@link isInvisibleCharacter}: text it does
 * not match has none of them and can pass untouched.
 */
export const MAY_HOLD_HIDDEN = new RegExp(
  `\\p{Cf}|[\\u2028\\u2029${[...BLANK_LETTERS].map((codePoint) => `\\u${hex(codePoint, 4)}`).join('')}]`,
  'u',
);

/** One code point as the escape this module writes: `\x1b`, `\u202e`, `\u{e0041}`. */
export function escapeCodePoint(codePoint: number): string {
  if (codePoint <= 0xff) return `\\x${hex(codePoint, 2)}`;
  if (codePoint <= 0xffff) return `\\u${hex(codePoint, 4)}`;
  return `\\u{${hex(codePoint, 1)}}`;
}

/**
 * The zero-width joiner and non-joiner and the variation selectors: invisible, but part of how ordinary text is
 * written (an emoji sequence, `👩‍💻`; Persian and Indic words; text or emoji presentation), so prose keeps them.
 */
function isTextJoiner(codePoint: number): boolean {
  return (
    codePoint === 0x200c ||
    codePoint === 0x200d ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
  );
}

/**
 * The text with every invisible character but the joiners and selectors of {@link isTextJoiner} written as its
 * escape: for prose, where an emoji or a word must stay whole and a zero-width space, word joiner, byte order mark or
 * tag character (text no terminal shows) must not hide.
 */
export function showHiddenInProse(text: string): string {
  return escapeWhere(text, isHiddenInProse);
}

/** Whether `character` (one code point) is one prose hides: invisible, and not a joiner or selector. */
export function isHiddenInProse(character: string): boolean {
  return isInvisibleCharacter(character) && !isTextJoiner(character.codePointAt(0)!);
}

/**
 * The text without the characters {@link showHiddenInProse} escapes: for prose that goes to a model as the user reads
 * it, where an escape would still spell out what tag characters hide, and a word split by a zero-width space reads
 * whole again.
 */
export function removeHiddenFromProse(text: string): string {
  let kept = '';
  for (const character of text) if (!isHiddenInProse(character)) kept += character;
  return kept;
}

/**
 * A name or a path on one line: every invisible character written as its escape, tabs and line breaks included. A
 * name a server or a repository chose could otherwise start a line of its own in the text that names it, passing for
 * one of the host's.
 */
export function showOnOneLine(text: string): string {
  return escapeWhere(text, (character) => isInvisibleCharacter(character) || character === '\n' || character === '\t');
}

/** The text with every invisible character written as its escape; tabs and newlines stay. */
export function showInvisibleCharacters(text: string): string {
  return escapeWhere(text, isInvisibleCharacter);
}

/** `text` with each character (one code point) `isEscaped` picks written as its escape. */
function escapeWhere(text: string, isEscaped: (character: string) => boolean): string {
  let shown = '';
  for (const character of text) shown += isEscaped(character) ? escapeCodePoint(character.codePointAt(0)!) : character;
  return shown;
}
