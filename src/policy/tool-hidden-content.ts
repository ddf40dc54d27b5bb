/**
 * Hidden content anywhere in a tool definition, not only its description: poisoned instructions hide just as
 * well in a parameter's description, an enum value or a default inside the input schema, and the model reads
 * all of it. Description flags keep plain offsets; every other string's flags carry its location and a raw
 * excerpt for the approval view.
 */

import { findHiddenContent, type HiddenContentFlag, showRaw } from './hidden-content.js';
import type { PinnableTool } from './tool-definition.js';

/**
 * Bounds for walking a schema a server controls: deeper or larger schemas are scanned up to here, and the rest
 * gets the verdict "could not check" (a finding: an untrusted server's tool is withheld), never "clean".
 */
const MAX_SCHEMA_DEPTH = 32;
const MAX_SCHEMA_STRINGS = 5_000;
/** Characters scanned over the whole definition. */
const MAX_TOOL_CHARACTERS = 1_000_000;
/** How much of a flagged schema string the approval view shows. */
const MAX_EXCERPT_LENGTH = 300;

function excerpt(text: string): string {
  const shown = showRaw(text);
  return shown.length <= MAX_EXCERPT_LENGTH
    ? shown
    : `${shown.slice(0, MAX_EXCERPT_LENGTH)}… (${shown.length - MAX_EXCERPT_LENGTH} more characters)`;
}

function segment(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function findHiddenContentInTool(
  tool: PinnableTool,
  otherServerToolNames: readonly string[] = [],
): HiddenContentFlag[] {
  const flags = findHiddenContent(tool.description ?? '', otherServerToolNames);
  let budget = MAX_SCHEMA_STRINGS;
  let characters = MAX_TOOL_CHARACTERS - (tool.description?.length ?? 0);
  const unchecked = new Map<string, string>();
  const scan = (text: string, location: string): void => {
    budget -= 1;
    characters -= text.length;
    if (characters < 0) {
      unchecked.set(
        'characters',
        `the definition holds more than ${MAX_TOOL_CHARACTERS.toLocaleString('en-US')} characters of text`,
      );
      return;
    }
    for (const flag of findHiddenContent(text, otherServerToolNames)) {
      flags.push({ ...flag, location, excerpt: excerpt(text) });
    }
  };
  const walk = (value: unknown, location: string, depth: number): void => {
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) return;
    if (budget <= 0) {
      unchecked.set('strings', `its schemas hold more than ${MAX_SCHEMA_STRINGS.toLocaleString('en-US')} strings`);
      return;
    }
    if (depth > MAX_SCHEMA_DEPTH) {
      unchecked.set('depth', `its schemas nest deeper than ${MAX_SCHEMA_DEPTH} levels (at ${location})`);
      return;
    }
    if (typeof value === 'string') {
      scan(value, location);
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, segment(location, index), depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        // A property name is read by the model too.
        const keyFlags = findHiddenContent(key, []);
        for (const flag of keyFlags) flags.push({ ...flag, location: `${location} (a key)`, excerpt: excerpt(key) });
        walk(item, segment(location, key), depth + 1);
      }
    }
  };
  if (tool.title !== undefined) scan(tool.title, 'title');
  walk(tool.inputSchema, 'inputSchema', 0);
  walk(tool.outputSchema, 'outputSchema', 0);
  for (const why of unchecked.values()) {
    flags.push({ kind: 'unchecked', message: `could not check the whole definition: ${why}`, index: 0, count: 1 });
  }
  return flags;
}
