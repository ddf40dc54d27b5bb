/**
 * A server's elicitation as the gateway's client is sent it: named as the server's (`Server "NAME" asks:`), so that
 * it cannot pass for the gateway's own approval question, and with no terminal control codes in the text the client
 * shows (the message, and each field's title, description and choice names), which on a terminal could move the
 * cursor and write over that name. What the answer carries (field names, enum values) is passed on as it is.
 */
import type { ElicitRequestFormParams, ElicitRequestURLParams } from '@modelcontextprotocol/client';
import { setOwnProperty } from '../json/own-property.js';
import { stripControlCodes } from '../text/strip-control-codes.js';

/** Keys of a form's schema whose strings are only shown. */
const SHOWN_TEXT_KEYS: ReadonlySet<string> = new Set(['title', 'description']);

export function namedElicitation<P extends ElicitRequestFormParams | ElicitRequestURLParams>(
  serverName: string,
  params: P,
): P {
  const message = `Server "${serverName}" asks: ${stripControlCodes(params.message)}`;
  if (params.mode === 'url' || !('requestedSchema' in params)) return { ...params, message };
  return {
    ...params,
    message,
    requestedSchema: shownTextCleaned(params.requestedSchema) as typeof params.requestedSchema,
  };
}

/** The schema with its titles, descriptions and `enumNames` without control codes; everything else as it was. */
function shownTextCleaned(value: unknown, key?: string): unknown {
  if (typeof value === 'string')
    return key !== undefined && SHOWN_TEXT_KEYS.has(key) ? stripControlCodes(value) : value;
  if (Array.isArray(value)) {
    return key === 'enumNames'
      ? value.map((item) => (typeof item === 'string' ? stripControlCodes(item) : item))
      : value.map((item) => shownTextCleaned(item));
  }
  if (typeof value !== 'object' || value === null) return value;
  const cleaned: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) setOwnProperty(cleaned, name, shownTextCleaned(item, name));
  return cleaned;
}
