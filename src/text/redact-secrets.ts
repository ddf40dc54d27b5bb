/**
 * Known secrets never leave the host in text it builds: values the config took from the environment, header values,
 * secret-named settings and what the model sent under secret-named keys. This is the lowest layer, so that the
 * connections (stderr tails, error bodies, exit notes) and the audit log redact with the same rules.
 */

export const REDACTED = '[redacted]';

/** Key names whose values are treated as secrets. */
export const SECRET_KEY_PATTERN =
  /pass(word)?|secret|token|api[-_]?key|authorization|cookie|credential|private[-_]?key/i;

/** Longest first, so replacing a short secret never leaves part of a longer one that contains it. */
export function orderedSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets)].filter((secret) => secret !== '').sort((left, right) => right.length - left.length);
}

/**
 * `text` with every occurrence of every secret (already ordered by `orderedSecrets`) replaced by `replacement`
 * (`[redacted]` unless a caller needs a stand-in that survives further processing first).
 */
export function replaceSecrets(text: string, ordered: readonly string[], replacement = REDACTED): string {
  let result = text;
  for (const secret of ordered) {
    if (result.includes(secret)) result = result.split(secret).join(replacement);
  }
  return result;
}

/** `text` with every occurrence of every secret replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || text === '') return text;
  return replaceSecrets(text, orderedSecrets(secrets));
}

/**
 * A secret-named key, quoted or not, then `:` or `=`, then its value: a quoted string (closed or not; escapes
 * respected) or a bare run up to the next separator. Matches the JSON a model sends and the `key=value` forms
 * it sometimes sends instead. A key starts where a run of word characters starts: trying every position inside a long
 * run (base64) made this quadratic, and a match from inside a run is always found from its start too.
 */
const SECRET_ASSIGNMENT = new RegExp(
  `(?<prefix>(?<quote>["']?)(?<![\\w-])[\\w-]*(?:${SECRET_KEY_PATTERN.source})[\\w-]*\\k<quote>\\s*[:=]\\s*)(?<value>"(?:[^"\\\\]|\\\\.)*"?|'(?:[^'\\\\]|\\\\.)*'?|[^\\s,;}\\]&]+)`,
  'gi',
);

/**
 * Raw argument text that may not parse (an unknown tool, broken JSON): known secrets replaced, and the value of every
 * secret-named key (`"password": "…"`, `token=…`) replaced whatever it is, since no parser can say where it ends.
 */
export function redactArgumentText(text: string, secrets: readonly string[]): string {
  const withoutValues = text.replace(SECRET_ASSIGNMENT, (...match) => {
    const { prefix, value } = match.at(-1) as { prefix: string; value: string };
    const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
    return `${prefix}${quote}${REDACTED}${quote}`;
  });
  return redactSecrets(withoutValues, secrets);
}
