/**
 * The bounds of the warnings kept with chat calls, a call warning of a few things at most: by the server, with the call in the
 * transcript it holds for a page that comes later (call-warnings.ts), and by the page, with the call of the turn it
 * follows live, so both show the same. Self-contained (no imports), so the browser build reads it without the library.
 */
export const MAX_CALL_WARNINGS = 10;

/**
 * Characters of warnings kept across one conversation (by the server) or one tab (by the page): half of what a page
 * is sent of it at once, so the warnings leave room for the messages. Some 20 calls' warnings that quote a long stderr
 * line (cut to 50,000 characters). The least recently warned calls' are dropped beyond it, the note below in place.
 */
export const MAX_CONVERSATION_WARNING_CHARS = 1_000_000;

export const DROPPED_WARNINGS_NOTE = `Earlier warnings of this call were dropped: the UI keeps the latest ${MAX_CONVERSATION_WARNING_CHARS.toLocaleString('en-US')} characters of a conversation's warnings while it holds it.`;

/** The characters of `warnings` counted against the bound (the note of dropped ones is not). */
export function warningChars(warnings: readonly string[]): number {
  return warnings.reduce((sum, warning) => sum + (warning === DROPPED_WARNINGS_NOTE ? 0 : warning.length), 0);
}
