/**
 * Copying untrusted JSON key by key. `JSON.parse` makes `"__proto__"` an ordinary own property, but assigning
 * `copy[key] = value` with that key replaces the copy's prototype instead: the key vanishes, and every later
 * lookup of a missing key (`copy.type`) reads the sender's object through the prototype. Spreads and
 * `Object.fromEntries` define own properties and are safe; `Object.assign` and plain assignment are not.
 * No imports: the web UI uses this module too.
 */

/** `target[key] = value`, as an own enumerable property even when `key` is `__proto__`. */
export function setOwnProperty<Value>(target: Record<string, Value>, key: string, value: NoInfer<Value>): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * `record[key]` when it is the record's own property: a key may be `__proto__` or `constructor` (a tool, a parameter),
 * which read through the prototype would find Object's own members.
 */
export function ownValue<Value>(record: Record<string, Value> | undefined, key: string): Value | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `Object.assign(target, source)` for untrusted keys: each of `source`'s own enumerable keys becomes an own property. */
export function assignOwnProperties<Value>(target: Record<string, Value>, source: Record<string, Value>): void {
  for (const [key, value] of Object.entries(source)) setOwnProperty(target, key, value);
}

/**
 * A copy of a value the MCP client library parsed, in which every object is a plain one holding only own
 * properties. The library's schemas copy unknown keys by assignment, so a `"__proto__"` key a server sent becomes
 * the object's prototype: unseen by `Object.keys` (fingerprints, scans, the schema normaliser) yet found by every
 * property read. The copy puts it back as the own `__proto__` key it was on the wire. `value` must already be
 * within the depth limit (messages from servers are screened for it when read).
 */
export function ownJsonCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(ownJsonCopy);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwnProperty(copy, key, ownJsonCopy(item));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null && !Object.hasOwn(copy, '__proto__')) {
    setOwnProperty(copy, '__proto__', ownJsonCopy(prototype));
  }
  return copy;
}

/**
 * Puts back, in place, every `__proto__` key that the MCP client library turned into a prototype while checking a
 * server's answer (see {@link ownJsonCopy}); returns `value`, or its copy when `value` itself had one. Left as a
 * prototype, the server's object answers every read of a missing field: a result with
 * `"__proto__": {"isError": true}` reads as failed, and the key is missing from the JSON the model is sent.
 * Objects with a normal prototype are walked, not copied, so an ordinary answer costs one visit per object.
 */
export function restoreOwnKeys<Value>(value: Value): Value {
  if (value === null || typeof value !== 'object') return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item !== null && typeof item === 'object') value[index] = restoreOwnKeys(item);
    }
    return value;
  }
  if (prototype !== Object.prototype && prototype !== null) return ownJsonCopy(value) as Value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item !== null && typeof item === 'object') {
      const restored = restoreOwnKeys(item);
      if (restored !== item) setOwnProperty(record, key, restored);
    }
  }
  return value;
}
