/**
 * Secrets never reach the audit log: values the config took from the environment (`${env:…}`), header values,
 * and anything filed under a key whose name says it is secret. Values are replaced wherever they occur inside a
 * string (a token pasted into a URL argument is still the token); secret-looking keys keep their name and lose
 * their value, whatever its type.
 */

import { describeTooDeep, MAX_JSON_DEPTH } from '../json/json-depth.js';
import { setOwnProperty } from '../json/own-property.js';
import { orderedSecrets, REDACTED, replaceSecrets, SECRET_KEY_PATTERN } from '../text/redact-secrets.js';

export { REDACTED, redactArgumentText, SECRET_KEY_PATTERN } from '../text/redact-secrets.js';

/** What stands in for a part nested deeper than {@link MAX_JSON_DEPTH}: the copy stays walkable. */
export const TOO_DEEP = `[${describeTooDeep('this value')}]`;

interface RedactOptions {
  /** Exact values to remove (`HostConfig.secrets`). Empty strings are ignored. */
  secrets: readonly string[];
}

/** `text` with every occurrence of every secret replaced by `[redacted]`. */
export function redactText(text: string, secrets: readonly string[]): string {
  return replaceSecrets(text, orderedSecrets(secrets));
}

/**
 * A deep copy of `value` with secret values removed from every string (keys included) and the values of
 * secret-looking keys replaced by `[redacted]`. The input is not modified.
 */
export function redactArguments(value: unknown, options: RedactOptions): unknown {
  return redactDeep(value, orderedSecrets(options.secrets), true, [], 0);
}

/** Like `redactArguments` but only removes secret values, leaving key names alone (for the record's own fields). */
export function redactValues(value: unknown, options: RedactOptions): unknown {
  return redactDeep(value, orderedSecrets(options.secrets), false, [], 0);
}

/**
 * `ancestors`: the objects on the path to `value`, to stop at a cycle. At most {@link MAX_JSON_DEPTH} long, so a
 * look through it costs less than a `WeakSet` made for every record.
 */
function redactDeep(
  value: unknown,
  secrets: readonly string[],
  byKey: boolean,
  ancestors: object[],
  depth: number,
): unknown {
  if (typeof value === 'string') return secrets.length === 0 ? value : replaceSecrets(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value)) return '[circular]';
  if (depth >= MAX_JSON_DEPTH) return TOO_DEEP;
  ancestors.push(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = value.map((item) => redactDeep(item, secrets, byKey, ancestors, depth + 1));
  } else {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const safeKey = secrets.length === 0 ? key : replaceSecrets(key, secrets);
      // A server's or a client's `__proto__` key stays a key of the copy: an assignment would make it the prototype.
      setOwnProperty(
        result,
        safeKey,
        byKey && SECRET_KEY_PATTERN.test(key) ? REDACTED : redactDeep(item, secrets, byKey, ancestors, depth + 1),
      );
    }
    copy = result;
  }
  ancestors.pop();
  return copy;
}
