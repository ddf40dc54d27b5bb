/**
 * Embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069). Wherever text is laid out
 * bidirectionally — a terminal that does so, any browser — one of them reorders what follows it, so a server's or a
 * model's text could show something other than what it says (a file name that reads `exe.txt` and is `exe.` then
 * `txt` reversed; a call's outcome moved to another place on its line). Left-to-right and right-to-left marks reorder
 * nothing beyond their neighbours and are left alone. No imports: the web UI uses this module too.
 */

export const DIRECTION_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
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
  return text.replace(DIRECTION_CONTROLS, (character) => `\\u${character.codePointAt(0)!.toString(16)}`);
}
