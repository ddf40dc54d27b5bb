/**
 * Freezes a JSON value and everything in it, for values handed out again and again from a cache: a caller that
 * tried to change one would otherwise change it for every later caller, silently.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
