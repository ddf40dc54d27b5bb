/**
 * Instruction files, the project memory and a skill's body go to the model as the text a person reads in an editor.
 * Characters no editor shows (tag characters that spell out words, zero-width spaces, direction controls, terminal
 * escapes) would carry words the user never sees, so the model gets the text without them, and the user is told
 * which file held them, in the words of the scanner tool descriptions go through.
 */
import { describeHiddenContent, findHiddenContent, type HiddenContentFlag } from '../policy/hidden-content.js';
import { isHiddenInProse } from '../text/invisible-characters.js';
import { removeControlCodes } from '../text/strip-control-codes.js';

/** The scanner's findings that are characters, not words: the ones removed. */
const CHARACTER_KINDS: ReadonlySet<HiddenContentFlag['kind']> = new Set([
  'ansi-escape',
  'control-character',
  'invisible-character',
  'bidi-control',
]);
/** Kinds of character named in a note; the rest are counted. */
const MAX_NAMED = 3;

interface TextForModel {
  text: string;
  /** What was removed, in words, for the user; undefined when nothing was. */
  removed?: string;
}

export function withoutHiddenCharacters(text: string): TextForModel {
  const clean = removeControlCodes(text);
  if (clean === text.replace(/\r\n/g, '\n')) return { text: clean };
  const removed = findHiddenContent(text).filter(
    (flag) => CHARACTER_KINDS.has(flag.kind) && isHiddenInProse(String.fromCodePoint(text.codePointAt(flag.index)!)),
  );
  if (removed.length === 0) return { text: clean, removed: 'invisible or control characters' };
  // The scanner names each tag character apart; together they are one thing, text spelt out of sight.
  const isTag = (flag: HiddenContentFlag) => isTagCharacter(text.codePointAt(flag.index)!);
  const tags = removed.filter(isTag).reduce((sum, flag) => sum + flag.count, 0);
  const others = removed.filter((flag) => !isTag(flag));
  const named = describeHiddenContent(others.slice(0, MAX_NAMED));
  const more = others.length - MAX_NAMED;
  if (more > 0) named.push(`and ${more} other kind${more === 1 ? '' : 's'} of hidden character`);
  if (tags > 0) named.unshift(`${tags} tag character${tags === 1 ? '' : 's'} (U+E0000–U+E007F), which spell out text`);
  return { text: clean, removed: named.join('; ') };
}

function isTagCharacter(codePoint: number): boolean {
  return codePoint >= 0xe0000 && codePoint <= 0xe007f;
}
