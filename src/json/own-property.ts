/**
 * Copying untrusted JSON key by key. `JSON.parse` makes `"__proto__"` an ordinary own property, but assigning
 * `copy[key] = value` with that key replaces the copy's prototype instead: the key vanishes, and every later
 * lookup of a missing key (`copy.type`) reads the sender's object through the prototype. Spreads and
 * `Object.fromEntries` define own properties and are safe; `Object.assign` and plain assignment are not.
 */

/** `target[key] = value`, as an own enumerable property even when `key` is `__proto__`. */
export function setOwnProperty<Value>(target: Record<string, Value>, key: string, value: NoInfer<Value>): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** `Object.assign(target, source)` for untrusted keys: each of `source`'s own enumerable keys becomes an own property. */
export function assignOwnProperties<Value>(target: Record<string, Value>, source: Record<string, Value>): void {
  for (const [key, value] of Object.entries(source)) setOwnProperty(target, key, value);
}
