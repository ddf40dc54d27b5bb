/**
 * A text a message quotes (a config key, a model spec) as a JSON string: on one line, cut with an ellipsis where what
 * a terminal shows of it passes a length. An invisible character counts as long as the escape a message is written
 * with (`\u200b`): a text of them, cut by its own length, showed six times as long and filled the line before the
 * message said what was wrong.
 */
import { escapeCodePoint, isInvisibleCharacter } from './invisible-characters.js';

export function quoteShown(text: string, max: number): string {
  let shown = 0;
  let end = 0;
  for (const character of text) {
    shown += shownLength(character);
    if (shown > max) return JSON.stringify(`${text.slice(0, end)}…`);
    end += character.length;
  }
  return JSON.stringify(text);
}

/** How long one character of a quoted text is on the terminal: as JSON escapes it, or as the message's escape. */
function shownLength(character: string): number {
  const quoted = JSON.stringify(character).length - 2;
  return isInvisibleCharacter(character) ? Math.max(quoted, escapeCodePoint(character.codePointAt(0)!).length) : quoted;
}
