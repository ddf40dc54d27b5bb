/**
 * Finds a `__proto__` key in parsed config JSON. `JSON.parse` keeps it as an ordinary key, but the validation
 * that copies maps (env, headers, profiles, …) drops it without a word, so a config holding one would run with a
 * setting silently missing. No setting of the host is named `__proto__`, so the whole config is refused instead.
 */

import type { KeyPathSegment } from './key-path.js';

export const PROTOTYPE_KEY = '__proto__';

/** The key path of the first `__proto__` key inside `value` (depth first, in file order), or undefined. */
export function findPrototypeKey(value: unknown): KeyPathSegment[] | undefined {
  // An explicit stack: a deeply nested file must not overflow the call stack.
  const pending: Array<{ value: unknown; path: KeyPathSegment[] }> = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const children: Array<{ value: unknown; path: KeyPathSegment[] }> = [];
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        children.push({ value: item, path: [...path, index] });
      });
    } else {
      for (const key of Object.keys(current)) {
        if (key === PROTOTYPE_KEY) return [...path, key];
        children.push({ value: (current as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
    // Reversed so the first child is examined first.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
  }
  return undefined;
}
