/**
 * Splits a text into a few pieces, so streamed answers (scripted provider, mock wires) arrive in
 * several deltas the way real models send them, and accumulators are exercised on joins.
 */

/** Splits `text` into at most `count` non-empty pieces of near-equal length ('' → []). */
export function splitIntoChunks(text: string, count = 3): string[] {
  if (text === '') return [];
  const characters = Array.from(text); // never cut a surrogate pair in half
  const size = Math.ceil(characters.length / Math.max(1, count));
  const chunks: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    chunks.push(characters.slice(start, start + size).join(''));
  }
  return chunks;
}
