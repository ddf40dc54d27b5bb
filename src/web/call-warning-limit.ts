/**
 * Warnings kept with one chat call, a call warning of a few things at most: by the server, with the call in the
 * transcript it holds for a page that comes later (call-warnings.ts), and by the page, with the call of the turn it
 * follows live, so both show the same. Self-contained (no imports), so the browser build reads it without the library.
 */
export const MAX_CALL_WARNINGS = 10;
