/**
 * Keeps the `__proto__` keys of the arguments a client sends with `tools/call`, which the MCP server library's
 * request check would drop (it copies `arguments` as a map and skips that key). The arguments are renamed as soon
 * as the message is read (see escape-prototype-keys.ts), before the library sees it, and the `tools/call` handler
 * names them back with `unescapePrototypeKeys`. Only a `tools/call` request's arguments are touched.
 */
import { escapePrototypeKeys } from '../json/escape-prototype-keys.js';
import { isPlainObject } from '../json/is-plain-object.js';

/** `body` (a parsed message, or a batch of them) with its `tools/call` arguments renamed; else `body` itself. */
export function escapeCallArguments(body: unknown): unknown {
  if (Array.isArray(body)) {
    const escaped = body.map(escapeCallArguments);
    return escaped.every((message, index) => message === body[index]) ? body : escaped;
  }
  if (!isPlainObject(body) || body.method !== 'tools/call' || !isPlainObject(body.params)) return body;
  const args = body.params.arguments;
  const escaped = escapePrototypeKeys(args);
  if (escaped === args) return body;
  return { ...body, params: { ...body.params, arguments: escaped } };
}
