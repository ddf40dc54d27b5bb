/**
 * The keys a config keeps its servers under, for the loader and for `mcp-host add` / `remove` alike: an edit must go
 * to the section the loader reads, or the servers already there stop being loaded without a word.
 */
import { formatKeyPath, isPlainObject } from './key-path.js';

/**
 * `mcpServers` (Claude Desktop, Claude Code, Cursor), `servers` (VS Code's mcp.json), and in VS Code's settings.json
 * `"mcp": {"servers": …}` or the flat `"mcp.servers"` key its settings editor writes.
 */
export type ServerSection = ['mcpServers'] | ['servers'] | ['mcp', 'servers'] | ['mcp.servers'];

/** The sections a config object has, in the order the loader would prefer them (it refuses more than one). */
export function serverSectionsOf(config: Record<string, unknown>): ServerSection[] {
  const sections: ServerSection[] = [];
  // A value left undefined is no section: a config written in code may spread one in.
  const has = (object: Record<string, unknown>, key: string) => Object.hasOwn(object, key) && object[key] !== undefined;
  if (has(config, 'mcpServers')) sections.push(['mcpServers']);
  if (has(config, 'servers')) sections.push(['servers']);
  if (isPlainObject(config.mcp) && has(config.mcp, 'servers')) sections.push(['mcp', 'servers']);
  if (has(config, 'mcp.servers')) sections.push(['mcp.servers']);
  return sections;
}

/** What the config holds at `section`. */
export function serversAt(config: Record<string, unknown>, section: ServerSection): unknown {
  return section.length === 2 ? (config.mcp as Record<string, unknown>).servers : config[section[0]];
}

/** An editor's settings file, whose other keys are the editor's own settings, not the host's. */
export function isEditorSection(section: ServerSection): boolean {
  return section[0] !== 'mcpServers' && section[0] !== 'servers';
}

/** The sections as messages name them: "`a` or `b`", or with `and`. */
export function listSections(sections: ReadonlyArray<ServerSection>, conjunction: 'or' | 'and' = 'or'): string {
  const names = sections.map((section) => `\`${formatKeyPath(section)}\``);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}
