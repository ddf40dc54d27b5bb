/**
 * The names the model sees for MCP tools: `server__tool`. Providers accept only `[A-Za-z0-9_-]`, at most 64
 * characters (Gemini also wants a letter or underscore first), while MCP allows any tool name and two servers may
 * offer the same one. Names must be unique, stable across runs and independent of the order servers answered in,
 * so a model, a permission rule or an audit record that names a tool always means the same tool.
 *
 * The rule, predictable from the names alone: each character outside `[A-Za-z0-9_-]` becomes `_` (so the server
 * "MCP SQLite Server" gives `MCP_SQLite_Server__…`), `_` goes in front of a name that does not start with a letter
 * or underscore, and a name longer than 64 characters is cut to 64. Only when two tools would then share a name
 * does one take `_` and 6 hex digits of the SHA-256 of its original server and tool (cut to keep 64 characters).
 * Which one keeps the name is decided so that adding a server never renames another server's tools: the tool of
 * the server listed first in the config keeps it; between tools of one server, the name that needed no change.
 */

import { createHash } from 'node:crypto';

export const TOOL_NAME_SEPARATOR = '__';
export const MAX_TOOL_NAME_LENGTH = 64;
/** What every assigned name matches. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const INVALID_CHARACTERS = /[^A-Za-z0-9_-]/gu;
const VALID_START = /^[A-Za-z_]/;
/** Hex digits of the hash suffix at first; lengthened only when two names would still clash. */
const INITIAL_HASH_LENGTH = 6;
/** 128 bits: collisions beyond this are not a practical concern, but the loop must end somewhere. */
const MAX_HASH_LENGTH = 32;

export interface ToolNameEntry {
  server: string;
  tool: string;
}

export interface ToolNamingOptions {
  /**
   * The servers in the config's order. In a clash the tool of the server listed first keeps its name, so a server
   * added later (after the others, as `mcp-host add` does) never renames the tools of the servers before it.
   * Servers not listed come after those listed; between two of them nobody keeps the name.
   */
  serverOrder?: readonly string[];
}

export interface NamedToolEntry extends ToolNameEntry {
  /** The name offered to the model. */
  name: string;
}

/**
 * `text` with each character (code point) outside `[A-Za-z0-9_-]` replaced by `_`, and `_` put in front unless it
 * starts with a letter or underscore. Not unique on its own: `assignToolNames` adds the hash that makes it so.
 */
export function sanitiseName(text: string): string {
  const replaced = text.replace(INVALID_CHARACTERS, '_');
  return VALID_START.test(replaced) ? replaced : `_${replaced}`;
}

/** An unambiguous key for a pair: no separator character can make two different pairs look alike. */
function pairKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

/**
 * A unique provider-safe name for every (server, tool) pair, sorted by name. The result depends only on the set of
 * pairs, never on their order. Throws when the same pair appears twice: the caller must list each tool once.
 */
export function assignToolNames(
  entries: ReadonlyArray<ToolNameEntry>,
  options: ToolNamingOptions = {},
): NamedToolEntry[] {
  const rankOf = new Map((options.serverOrder ?? []).map((server, index) => [server, index] as const));
  const candidates = entries.map((entry) => {
    const plain = `${entry.server}${TOOL_NAME_SEPARATOR}${entry.tool}`;
    const base = TOOL_NAME_PATTERN.test(plain) ? plain : sanitiseName(plain).slice(0, MAX_TOOL_NAME_LENGTH);
    return {
      server: entry.server,
      tool: entry.tool,
      base,
      /** The name needed no change: in a clash it has the best claim to it. */
      unchanged: base === plain,
      rank: rankOf.get(entry.server) ?? Number.POSITIVE_INFINITY,
      digest: createHash('sha256').update(pairKey(entry.server, entry.tool)).digest('hex'),
      hashLength: 0,
      name: '',
    };
  });
  rejectDuplicates(candidates);

  // Repeat until no two names are equal. Each round depends only on the set of names (and the server order), so
  // the outcome does not depend on input order. In a clash, the entry with the best claim keeps the name (its
  // server listed first, then a name that needed no change); every other entry involved takes (or lengthens) its
  // hash. When no single entry has the best claim (two changed names of one server, or two plain names of servers
  // in no known order: `a__b` + `c` and `a` + `b__c`), all of them move.
  for (;;) {
    const byName = new Map<string, typeof candidates>();
    for (const candidate of candidates) {
      candidate.name = buildName(candidate.base, candidate.digest, candidate.hashLength);
      const group = byName.get(candidate.name);
      if (group === undefined) byName.set(candidate.name, [candidate]);
      else group.push(candidate);
    }
    let clashed = false;
    for (const group of byName.values()) {
      if (group.length < 2) continue;
      clashed = true;
      const keeper = bestClaim(group.filter((candidate) => candidate.hashLength === 0));
      for (const candidate of group) {
        if (candidate === keeper) continue;
        if (candidate.hashLength === 0) candidate.hashLength = INITIAL_HASH_LENGTH;
        else if (candidate.hashLength < MAX_HASH_LENGTH) candidate.hashLength += 2;
        else {
          throw new Error(
            `cannot give tool "${candidate.tool}" on server "${candidate.server}" a unique name: hash collision.`,
          );
        }
      }
    }
    if (!clashed) break;
  }

  return candidates
    .map(({ server, tool, name }) => ({ server, tool, name }))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/** The one candidate with the best claim to a clashing name, or undefined when two share the best claim. */
function bestClaim<T extends { rank: number; unchanged: boolean }>(claimants: readonly T[]): T | undefined {
  const compare = (left: T, right: T): number =>
    left.rank !== right.rank ? (left.rank < right.rank ? -1 : 1) : Number(right.unchanged) - Number(left.unchanged);
  const [best, next] = [...claimants].sort(compare);
  if (best === undefined || (next !== undefined && compare(best, next) === 0)) return undefined;
  return best;
}

function buildName(base: string, digest: string, hashLength: number): string {
  if (hashLength === 0) return base;
  const suffix = `_${digest.slice(0, hashLength)}`;
  return base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
}

function rejectDuplicates(entries: ReadonlyArray<ToolNameEntry>): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    const key = pairKey(entry.server, entry.tool);
    if (seen.has(key)) {
      throw new Error(
        `tool "${entry.tool}" is listed twice for server "${entry.server}"; list each tool once before naming.`,
      );
    }
    seen.add(key);
  }
}
