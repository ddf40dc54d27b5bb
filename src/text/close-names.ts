/** Suggests known names close to an unknown one (edit distance and shared suffix), best first. */
export function closeNames(unknown: string, known: readonly string[], limit: number): string[] {
  const target = unknown.toLowerCase();
  const bare = target.includes('__') ? target.slice(target.lastIndexOf('__') + 2) : target;
  return known
    .map((name) => {
      const candidate = name.toLowerCase();
      // A name without `__` is compared whole (slicing after index -1 would drop its first letter).
      const toolPart = candidate.includes('__') ? candidate.slice(candidate.lastIndexOf('__') + 2) : candidate;
      // A prefix or part of the real name (`add` for `add_numbers`) is as good as a typo.
      const contains = bare.length >= 3 && (toolPart.includes(bare) || bare.includes(toolPart));
      const score = contains ? 1 : Math.min(editDistance(target, candidate), editDistance(bare, toolPart));
      // Close means a few edits for the shorter of the two words: `nope` is not close to `calculator__divide`.
      return { name, score, within: Math.max(2, Math.floor(Math.min(bare.length, toolPart.length) / 3)) };
    })
    .filter(({ score, within }) => score <= within)
    .sort((left, right) => left.score - right.score || (left.name < right.name ? -1 : 1))
    .slice(0, limit)
    .map(({ name }) => name);
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
