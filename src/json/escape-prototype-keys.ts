/**
 * Carries `__proto__` keys through a parser that drops them. The MCP client library checks a result with schemas
 * that skip a key named `__proto__` in every map they copy (`structuredContent`, `_meta`), so a key a server sent is
 * gone before the host sees the result. Renamed before the check and named back after it, the key survives as the
 * own data key it was on the wire; no prototype is ever set.
 *
 * The renaming is one to one: `__proto__` gains a prefix, and a key that already looks renamed (the prefix, any
 * number of times, then `__proto__`) gains one more, so every key a server sends comes back as it was.
 */
import { MAX_JSON_DEPTH } from './json-depth.js';
import { ownJsonCopy, setOwnProperty } from './own-property.js';

const PREFIX = '~';
/** `__proto__` and its renamed forms. */
const RENAMEABLE = /^~*__proto__$/;
const RENAMED = /^~+__proto__$/;

/** `value` with every `__proto__` key (and every key of its renamed form) renamed; unchanged objects are reused. */
export function escapePrototypeKeys<Value>(value: Value): Value {
  return renameKeys(value, (key) => (RENAMEABLE.test(key) ? `${PREFIX}${key}` : undefined), 0);
}

/**
 * `escapePrototypeKeys` of a value the MCP client library has checked, in the same one walk: a `__proto__` key its
 * schemas made the prototype of an object (see `ownJsonCopy`) is a key again, and renamed with the rest. Returns
 * `value` itself exactly when it held no such key, renamed or not.
 */
export function escapeParsedPrototypeKeys<Value>(value: Value): Value {
  return renameKeys(value, (key) => (RENAMEABLE.test(key) ? `${PREFIX}${key}` : undefined), 0, true);
}

/** Undoes `escapePrototypeKeys`: each renamed key is named back, `__proto__` as an own data key. */
export function unescapePrototypeKeys<Value>(value: Value): Value {
  return renameKeys(value, (key) => (RENAMED.test(key) ? key.slice(PREFIX.length) : undefined), 0);
}

/**
 * `value` with the keys `rename` names renamed, keeping their order, down to `MAX_JSON_DEPTH`: anything deeper is
 * left as it is (such a value is refused for its depth wherever it goes, and walking it could overflow the stack).
 * Nothing is changed in place: an object or array is copied only when something inside it was renamed, so an
 * ordinary value costs one visit per object. With `ownKeys`, an object with another prototype is first its
 * `ownJsonCopy`.
 */
function renameKeys<Value>(
  value: Value,
  rename: (key: string) => string | undefined,
  depth: number,
  ownKeys = false,
): Value {
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const walked = renameKeys(item, rename, depth + 1, ownKeys);
      if (walked === item) return;
      copy ??= [...value];
      copy[index] = walked;
    });
    return (copy ?? value) as Value;
  }
  if (ownKeys) {
    const prototype: unknown = Object.getPrototypeOf(value);
    // The copy holds the `__proto__` key, so it is renamed (and copied once more) below: a rare path.
    if (prototype !== Object.prototype && prototype !== null)
      return renameKeys(ownJsonCopy(value) as Value, rename, depth, true);
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  const keys = Object.keys(record);
  for (const [index, key] of keys.entries()) {
    const item = record[key];
    const walked = renameKeys(item, rename, depth + 1, ownKeys);
    const name = rename(key);
    if (walked === item && name === undefined && copy === undefined) continue;
    if (copy === undefined) {
      copy = {};
      for (const earlier of keys.slice(0, index)) setOwnProperty(copy, earlier, record[earlier]);
    }
    setOwnProperty(copy, name ?? key, walked);
  }
  return (copy ?? value) as Value;
}
