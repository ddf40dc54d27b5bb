/**
 * Glob patterns over namespaced tool names (`fs__*`, `*__delete_*`), the form permission rules are written in.
 * Deliberately tiny: `*` matches any run of characters (including none, and including `__`), `?` exactly one, every
 * other character itself. Patterns are anchored: `fs__*` does not match `myfs__read`.
 */

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached !== undefined) return cached;
  let source = '';
  for (const character of pattern) {
    if (character === '*') source += '[\\s\\S]*';
    else if (character === '?') source += '[\\s\\S]';
    else source += character.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
  }
  const expression = new RegExp(`^${source}$`, 'u');
  cache.set(pattern, expression);
  return expression;
}

export function matchesGlob(pattern: string, name: string): boolean {
  return globToRegExp(pattern).test(name);
}

/** The pattern's literal text with its wildcards removed: what it really pins down. */
export function literalPartOf(pattern: string): string {
  return pattern.replace(/[*?]/g, '');
}
