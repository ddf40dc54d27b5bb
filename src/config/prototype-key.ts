/**
 * Finds a `__proto__` key in parsed config JSON. `JSON.parse` keeps it as an ordinary key, but the validation
 * that copies maps (env, headers, profiles, …) drops it without a word, so a config holding one would run with a
 * setting silently missing. No setting of the host is named `__proto__`, so the whole config is refused instead.
 */

import type { KeyPathSegment } from './key-path.js';

export const PROTOTYPE_KEY = '__proto__';

interface Visit {
  value: unknown;
  parent: Visit | undefined;
  key: KeyPathSegment | undefined;
}

/** The key path of the first `__proto__` key inside `value` (depth first, in file order), or undefined. */
export function findPrototypeKey(value: unknown): KeyPathSegment[] | undefined {
  // An explicit stack, and each entry points at its parent instead of holding its whole path: a deeply nested file
  // overflows neither the call stack nor memory.
  const pending: Visit[] = [{ value, parent: undefined, key: undefined }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (current === null || typeof current !== 'object') continue;
    const children: Visit[] = [];
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        children.push({ value: item, parent: visit, key: index });
      });
    } else {
      for (const key of Object.keys(current)) {
        if (key === PROTOTYPE_KEY) return [...pathOf(visit), key];
        children.push({ value: (current as Record<string, unknown>)[key], parent: visit, key });
      }
    }
    // Reversed so the first child is examined first.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
  }
  return undefined;
}

function pathOf(visit: Visit): KeyPathSegment[] {
  const path: KeyPathSegment[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}
