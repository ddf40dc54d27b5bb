/**
 * Glob patterns over namespaced tool names (`fs__*`, `*__delete_*`), the form permission rules, skills'
 * `allowed-tools` and audit filters are written in. Deliberately tiny: `*` matches any run of characters (including
 * none, and including `__`), `?` exactly one, every other character itself. Patterns are anchored: `fs__*` does not
 * match `myfs__read`.
 *
 * Matched without a regular expression: a pattern with many stars (`a*a*a*…b`, from a skill or a config someone
 * else wrote) would make a backtracking engine take exponential time; this walk takes at most
 * pattern length × name length steps.
 */

export function matchesGlob(pattern: string, name: string): boolean {
  const wanted = Array.from(pattern);
  const given = Array.from(name);
  let at = 0;
  let next = 0;
  // The last star seen, and where in the name its match currently ends: on a mismatch, that star takes one more.
  let star = -1;
  let starEnd = 0;
  while (at < given.length) {
    const character = wanted[next];
    if (character !== undefined && character !== '*' && (character === '?' || character === given[at])) {
      at++;
      next++;
    } else if (character === '*') {
      star = next;
      starEnd = at;
      next++;
    } else if (star !== -1) {
      next = star + 1;
      starEnd++;
      at = starEnd;
    } else {
      return false;
    }
  }
  while (wanted[next] === '*') next++;
  return next === wanted.length;
}

/** The pattern's literal text with its wildcards removed: what it really pins down. */
export function literalPartOf(pattern: string): string {
  return pattern.replace(/[*?]/g, '');
}
