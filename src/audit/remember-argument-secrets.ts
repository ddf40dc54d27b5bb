import { MAX_JSON_DEPTH } from '../json/json-depth.js';
import { SECRET_KEY_PATTERN } from '../text/redact-secrets.js';

/** Shorter values would redact ordinary words all over the log. */
const MIN_REMEMBERED_SECRET_LENGTH = 6;

/**
 * Adds to `secrets` every string filed under a secret-looking key in `args` (`password`, `apiKey`, `token` …).
 * The call's own record redacts such keys anyway; remembering the values also keeps them out of text the host
 * records later, such as a server's stderr tail when it echoes its arguments and then crashes.
 */
export function rememberArgumentSecrets(args: unknown, secrets: string[], underSecretKey = false, depth = 0): void {
  if (typeof args === 'string') {
    if (underSecretKey && args.length >= MIN_REMEMBERED_SECRET_LENGTH && !secrets.includes(args)) secrets.push(args);
    return;
  }
  // Past the depth bound the call is refused anyway; stopping here keeps the walk off the end of the stack.
  if (typeof args !== 'object' || args === null || depth >= MAX_JSON_DEPTH) return;
  for (const [key, value] of Object.entries(args)) {
    const secret = underSecretKey || (!Array.isArray(args) && SECRET_KEY_PATTERN.test(key));
    rememberArgumentSecrets(value, secrets, secret, depth + 1);
  }
}
