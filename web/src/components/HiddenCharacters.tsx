/**
 * A control keeps the exact value it is given, so that what is sent is what the server expects; when that value
 * holds characters the control would not show as themselves (direction controls, zero-width and other invisible
 * ones), the control is marked and described by a notice beneath it that shows the value with them as escapes.
 */
import { hasHiddenCharacters, showHiddenCharacters } from '../hidden-characters';

const needsNotice = (value: unknown, singleLine: boolean): value is string =>
  typeof value === 'string' && hasHiddenCharacters(value, singleLine);

/**
 * Attributes for a control holding `value`: marked, and described by the notice `noticeId` (an id of the UI's own,
 * never one made of a server's names, which may hold spaces), when it needs one.
 */
export function hiddenCharactersMark(
  noticeId: string,
  value: unknown,
  singleLine: boolean,
): { 'aria-describedby'?: string; 'data-hidden-characters'?: true } {
  return needsNotice(value, singleLine) ? { 'aria-describedby': noticeId, 'data-hidden-characters': true } : {};
}

/** The notice beneath a control holding `value`, or nothing when the control shows it as it is. */
export function HiddenCharactersNotice({ id, value, singleLine }: { id: string; value: unknown; singleLine: boolean }) {
  if (!needsNotice(value, singleLine)) return null;
  return (
    <div className="hidden-characters" id={id}>
      Contains hidden characters: {/* Its own direction: the value's letters cannot reorder the words before it. */}
      <code dir="ltr">{showHiddenCharacters(value, singleLine)}</code>
    </div>
  );
}
