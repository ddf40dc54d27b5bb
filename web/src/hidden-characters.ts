/**
 * Values the UI puts into form controls to be sent back (a schema's default, a chosen choice or suggestion, a form's
 * default) stay exactly as the server gave them; what the user sees of them is told apart here. A control shows such
 * a value raw, so its hidden characters reorder or hide what it reads as: these say whether a value has any and show
 * it with them as escapes, and write JSON whose strings carry them as JSON escapes, which read back to the same value.
 * Names the user picks or compares by are shown with every such character as an escape wherever they appear.
 */
import {
  escapeCodePoint,
  isInvisibleCharacter,
  isLookAlikeSpace,
  showInvisibleCharacters,
} from '../../src/text/invisible-characters.js';

/**
 * Whether `value` has a character its control would not show as itself: an invisible one anywhere, and a line break
 * where the control is one line (a text input drops it from what it shows, not from what is sent).
 */
export function hasHiddenCharacters(value: string, singleLine: boolean): boolean {
  for (const character of value) {
    if (isInvisibleCharacter(character) || (singleLine && character === '\n')) return true;
  }
  return false;
}

/** `value` with its hidden characters as escapes (`\u202e`, and `\n` where the control is one line). */
export function showHiddenCharacters(value: string, singleLine: boolean): string {
  const shown = showInvisibleCharacters(value);
  return singleLine ? shown.replaceAll('\n', '\\n') : shown;
}

/** A UTF-16 code unit as a JSON escape. */
function jsonEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}

/**
 * JSON text with every invisible character, and every space but the ASCII one, written as a JSON escape (`\u202e`,
 * `\u00a0`, a pair of them past U+FFFF): outside strings JSON has no such character but the ASCII space, and inside
 * one the escape parses back to it. Text cut short stays as it was.
 */
export function jsonTextShowingHiddenCharacters(text: string): string {
  let shown = '';
  for (const character of text) {
    if (!isInvisibleCharacter(character) && !isLookAlikeSpace(character)) {
      shown += character;
      continue;
    }
    for (let index = 0; index < character.length; index += 1) shown += jsonEscape(character.charCodeAt(index));
  }
  return shown;
}

/** `JSON.stringify(value, null, space)` with every invisible character written as a JSON escape. */
export function jsonShowingHiddenCharacters(value: unknown, space?: number): string {
  return jsonTextShowingHiddenCharacters(JSON.stringify(value, null, space) ?? '');
}

/** Spaces a browser shows as one (a run of them) or not at all (at either end of a name). */
const COLLAPSED_SPACES = /^ +| +$| {2,}/g;

/**
 * A name the user picks or compares by (a server's, tool's, prompt's or resource's, a resource's URI) as shown: every
 * invisible character, tab and line break as its escape, each space of a run or at either end as `\x20`, every other
 * kind of space (no-break, ideographic, …) as its escape, and a backslash doubled, so that no two different names
 * show alike — not even one that spells out another's escape, nor two that differ in spaces a browser would collapse
 * (in text, a list's options and an element's name alike) or in the kind of space. Only what is shown: what is sent
 * is the exact name.
 */
export function showName(name: string): string {
  return showHiddenCharacters(name.replaceAll('\\', '\\\\'), true)
    .replaceAll('\t', '\\t')
    .replace(COLLAPSED_SPACES, (spaces) => '\\x20'.repeat(spaces.length))
    .replace(/\p{Zs}/gu, (space) => (isLookAlikeSpace(space) ? escapeCodePoint(space.codePointAt(0)!) : space));
}
