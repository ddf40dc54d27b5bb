/**
 * Key paths and value descriptions for config messages, so every error and warning points at the same spelling of
 * a location (`mcpServers.fs.args[0]`) and shows what was there without dumping a whole object.
 */

import { quoteShown } from '../text/quote-shown.js';

export type KeyPathSegment = string | number;

/** Segments that read well bare; anything else (dots, spaces, empty) is written as `["…"]`. */
const BARE_SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
/**
 * A key that shows longer than this is cut in the path, which then still leaves room for what is wrong there. What
 * counts is what is shown: a character written as an escape (`\u200b`) is as long as its escape.
 */
const MAX_SHOWN_KEY = 100;

export function formatKeyPath(segments: ReadonlyArray<KeyPathSegment>): string {
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (segment.length <= MAX_SHOWN_KEY && BARE_SEGMENT.test(segment))
      text += text === '' ? segment : `.${segment}`;
    else text += `[${quoteKey(segment)}]`;
  }
  return text;
}

/** A config key a message names on its own (a server name), as a JSON string cut as the key path cuts it. */
export function quoteKey(key: string): string {
  return quoteShown(key, MAX_SHOWN_KEY);
}

const MAX_SHOWN_STRING = 40;

/** A short, single-line description of a JSON value for "found …". */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'string') return `the string ${quoteShown(value, MAX_SHOWN_STRING)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** The value at `segments` inside `root`, or undefined when the path leads nowhere. */
export function valueAtPath(root: unknown, segments: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
