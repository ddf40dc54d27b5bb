/**
 * Whatever a server (or a model) says is printed as text, never as terminal commands: an OSC sequence can retitle
 * the window or write a hyperlink, a CSI sequence can clear the screen, move the cursor or recolour what follows,
 * a carriage return can overwrite a line the user is reading. Newline and tab are the only controls kept. Text-direction
 * controls go too: a terminal laying out bidirectional text would show the rest of the line in another order. Other
 * characters that show as nothing (a zero-width space, a word joiner, tag characters that spell out hidden text) are
 * written as escapes (`\u200b`), so nothing in the text is out of sight; the joiners and selectors emoji and some
 * scripts are written with stay as they are (see invisible-characters.ts).
 */
import { DIRECTION_CONTROL, stripDirectionControls } from './direction-controls.js';
import { MAY_HOLD_HIDDEN, removeHiddenFromProse, showHiddenInProse } from './invisible-characters.js';

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

/**
 * `text` with terminal control sequences, control characters and text-direction controls removed, and other
 * invisible characters but joiners and selectors written as escapes; `\r\n` becomes `\n`.
 */
export function stripControlCodes(text: string): string {
  if (!hasControlCodes(text)) return text;
  return showHiddenInProse(withoutControls(text));
}

/**
 * `text` as {@link stripControlCodes} leaves it, but with the other invisible characters removed rather than escaped:
 * what a person reading the text sees, for a model to read (see {@link removeHiddenFromProse}).
 */
export function removeControlCodes(text: string): string {
  if (!hasControlCodes(text)) return text;
  return removeHiddenFromProse(withoutControls(text));
}

function withoutControls(text: string): string {
  return stripDirectionControls(
    text.replace(/\r\n/g, '\n').replace(CONTROL_SEQUENCE, '').replace(CONTROL_CHARACTER, ''),
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a quick test before the slower replacements.
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
/** Whether `text` holds anything {@link stripControlCodes} removes or escapes. */
export function hasControlCodes(text: string): boolean {
  return ANY_CONTROL.test(text) || DIRECTION_CONTROL.test(text) || MAY_HOLD_HIDDEN.test(text);
}

/** What JSON.stringify leaves as it is and a terminal would act on. */
const JSON_UNESCAPED = new RegExp(`[\\u007f-\\u009f]|${DIRECTION_CONTROL.source}`, 'gu');

/**
 * JSON text with DEL, the C1 controls and the text-direction controls written as `\u` escapes. `JSON.stringify`
 * escapes C0 but leaves the others as they are: a terminal may act on U+009B (CSI) or U+009D (OSC), and one laying out
 * bidirectional text reorders what follows a direction control. Escaped, the JSON means the same.
 */
export function escapeJsonControlCodes(json: string): string {
  return json.replace(JSON_UNESCAPED, (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
