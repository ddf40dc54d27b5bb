/**
 * Whatever a server (or a model) says is printed as text, never as terminal commands: an OSC sequence can retitle
 * the window or write a hyperlink, a CSI sequence can clear the screen, move the cursor or recolour what follows,
 * a carriage return can overwrite a line the user is reading. Newline and tab are the only controls kept.
 */

// ESC-introduced sequences (ECMA-48): OSC/DCS/SOS/PM/APC strings up to BEL or ST (or the end, if never closed),
// CSI with its parameters, and two-character escapes; the same with 8-bit C1 introducers.
const CONTROL_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal control sequences is the point.
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|\u001b[ -/]*[0-~]?/gu;
/**
 * Every character that can begin one of {@link CONTROL_SEQUENCE}'s sequences: text cut into runs to be cleaned one at
 * a time must not be cut between one and the rest of its sequence, or the tail would be printed as plain text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the introducers of terminal control sequences.
export const CONTROL_SEQUENCE_INTRODUCER = /[\u001b\u0090\u0098\u009b\u009d-\u009f]/u;
/** Single control characters left after the sequences: C0 except tab and newline, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to remove.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

/** `text` with terminal control sequences and control characters removed; `\r\n` becomes `\n`. */
export function stripControlCodes(text: string): string {
  if (!hasControlCodes(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(CONTROL_SEQUENCE, '').replace(CONTROL_CHARACTER, '');
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a quick test before the slower replacements.
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

export function hasControlCodes(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/**
 * JSON text with DEL and the C1 controls written as `\u` escapes. `JSON.stringify` escapes C0 but leaves U+007F to
 * U+009F as they are, and a terminal may act on U+009B (CSI) or U+009D (OSC); escaped, the JSON means the same.
 */
export function escapeJsonControlCodes(json: string): string {
  return json.replace(
    /[\u007f-\u009f]/gu,
    (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}
