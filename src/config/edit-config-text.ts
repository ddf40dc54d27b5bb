/**
 * Adds and removes server entries in config text the way a person would by hand: the rest of the file (comments,
 * key order, indentation, other settings) stays as it was. Used by `mcp-host add` and `mcp-host remove`.
 */

import { applyEdits, type FormattingOptions, modify } from 'jsonc-parser';
import { blankJsoncExtras } from './jsonc-text.js';
import { isPlainObject } from './key-path.js';

export type ServerSection = ['mcpServers'] | ['servers'] | ['mcp', 'servers'];

/** The parsed file, or undefined when it is not JSON (with comments) at all. */
function parseLoosely(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return {};
  try {
    return JSON.parse(blankJsoncExtras(body));
  } catch {
    return undefined;
  }
}

/** Where the file keeps its servers: its existing map, else `mcpServers`. Undefined when the text is not an object. */
export function serverSectionOf(
  text: string,
): { section: ServerSection; servers: Record<string, unknown> } | undefined {
  const value = parseLoosely(text);
  if (!isPlainObject(value)) return undefined;
  if (isPlainObject(value.servers) && !('mcpServers' in value)) return { section: ['servers'], servers: value.servers };
  if (isPlainObject(value.mcpServers)) return { section: ['mcpServers'], servers: value.mcpServers };
  if (isPlainObject(value.mcp) && isPlainObject(value.mcp.servers)) {
    return { section: ['mcp', 'servers'], servers: value.mcp.servers };
  }
  return { section: ['mcpServers'], servers: {} };
}

/** `text` with `entry` set at `section.name`. */
export function setServerEntry(text: string, section: ServerSection, name: string, entry: unknown): string {
  const base = text.trim() === '' ? '{}\n' : text;
  return applyEdits(base, modify(base, [...section, name], entry, { formattingOptions: formattingOf(base) }));
}

/** `text` without the entry at `section.name`. */
export function removeServerEntry(text: string, section: ServerSection, name: string): string {
  return applyEdits(text, modify(text, [...section, name], undefined, { formattingOptions: formattingOf(text) }));
}

/** Indentation and line ends as the file already has them (two spaces and `\n` for a new file). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent === undefined ? 2 : Math.min(indent.length, 8), eol };
}
