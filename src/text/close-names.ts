/**
 * Longest name compared. A longer one is no misspelling, and comparing it costs its length times each name's: a
 * gateway client's tool name of a few hundred kilobytes held the event loop for seconds against a hundred tools.
 */
export const MAX_COMPARED_NAME_LENGTH = 1_000;

/** Suggests known names close to an unknown one (edit distance and shared suffix), best first. */
export function closeNames(unknown: string, known: readonly string[], limit: number): string[] {
  if (unknown.length > MAX_COMPARED_NAME_LENGTH) return [];
  const target = unknown.toLowerCase();
  const bare = target.includes('__') ? target.slice(target.lastIndexOf('__') + 2) : target;
  return known
    .flatMap((name) => {
      if (name.length > MAX_COMPARED_NAME_LENGTH) return [];
      const candidate = name.toLowerCase();
      // A name without `__` is compared whole (slicing after index -1 would drop its first letter).
      const toolPart = candidate.includes('__') ? candidate.slice(candidate.lastIndexOf('__') + 2) : candidate;
      const part = isPartOf(bare, toolPart);
      const within = editsAllowed(Math.min(bare.length, toolPart.length));
      // Each edit changes the length by one at most: a name whose length is further off is not measured.
      const lengthGap = Math.min(Math.abs(target.length - candidate.length), Math.abs(bare.length - toolPart.length));
      if (!part && lengthGap > within) return [];
      const edits = Math.min(editDistance(target, candidate), editDistance(bare, toolPart));
      // A part counts as one edit, but the same name in another case (`timeoutMS`) is closer than a longer one
      // holding it (`maxTotalTimeoutMs`), and among equals the fewer edits win (`maxTurn` is `maxTurns`).
      const score = part ? Math.min(1, edits) : edits;
      return score <= within ? [{ name, score, edits }] : [];
    })
    .sort((left, right) => left.score - right.score || left.edits - right.edits || (left.name < right.name ? -1 : 1))
    .slice(0, limit)
    .map(({ name }) => name);
}

/**
 * A prefix or part of the real name (`add` for `add_numbers`) is as good as a typo. One or two letters only count
 * as the start of the other word: `i` is somewhere in most names, and `ui` in `guide`.
 */
function isPartOf(word: string, name: string): boolean {
  return startsOrHolds(name, word) || startsOrHolds(word, name);
}

function startsOrHolds(whole: string, part: string): boolean {
  if (part.length === 0 || part.length > whole.length) return false;
  return part.length <= 2 ? whole.startsWith(part) : whole.includes(part);
}

/**
 * Close means a few edits for the shorter of the two words: `nope` is not close to `calculator__divide`. Two edits
 * of a word of one or two letters replace it whole (`x` would be close to `ui`), so such a word gets one.
 */
function editsAllowed(shorter: number): number {
  return shorter <= 2 ? 1 : Math.max(2, Math.floor(shorter / 3));
}

function editDistance(left: string, right: string): number {
  if (left === right) return 0;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[right.length]!;
}
