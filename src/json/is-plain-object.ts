/**
 * Whether `value` is an object as `JSON.parse` makes one: not an array, its prototype `Object.prototype` or none.
 * The fast paths that accept a server's message without the SDK's schemas recognise only such objects, so anything
 * else (a class instance, an object the library built) still goes through the schemas.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
