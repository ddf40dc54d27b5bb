import { isInvisibleCharacter } from '../../src/text/invisible-characters.js';

/** The invisible characters in `text`, as code points (`U+200b`): none where everything shows them as escapes. */
export function invisibleIn(text: string): string[] {
  return [...text].filter(isInvisibleCharacter).map((character) => `U+${character.codePointAt(0)!.toString(16)}`);
}
