/**
 * Embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) and the left-to-right, right-to-left and
 * Arabic letter marks (U+200E, U+200F, U+061C). Wherever text is laid out bidirectionally — a terminal that does so,
 * any browser — a control reorders what follows it, and a mark, read as a letter of its direction, reorders the
 * numbers and punctuation between two of them (`10 + 20` shown as `20 + 10`), so a server's or a model's text could
 * show something other than what it says (a file name that reads `exe.txt` and is `exe.` then `txt` reversed; a
 * call's outcome moved to another place on its line). No imports: the web UI uses this module too.
 */

export const DIRECTION_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const DIRECTION_CONTROLS = new RegExp(DIRECTION_CONTROL.source, 'gu');

/** `text` without direction controls: for printing, where nothing else could make them harmless. */
export function stripDirectionControls(text: string): string {
  return text.replace(DIRECTION_CONTROLS, '');
}

/**
 * `text` with each direction control written as its escape (`\u202e`), as the approval view writes every invisible
 * character: where text is shown for reading, the reader sees that one was there, and it reorders nothing.
 */
export function showDirectionControls(text: string): string {
  return text.replace(
    DIRECTION_CONTROLS,
    (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}
