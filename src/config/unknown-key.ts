/** The warning for a key mcp-host does not use, with the known keys it was probably meant to be. */
import { closeNames } from '../text/close-names.js';

export function unknownKeyNote(key: string, known: ReadonlySet<string>, why: string): string {
  const close = closeNames(key, [...known], 1);
  return close.length === 0 ? why : `${why} (did you mean ${close.map((name) => `"${name}"`).join(' or ')}?)`;
}
