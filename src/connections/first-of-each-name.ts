/**
 * A server that names one tool twice in `tools/list` breaks every catalog built from it (two entries, one name).
 * The host keeps the first definition of each name, as a client reading the list in order would, and says which
 * names were repeated so the user can tell the server's author.
 */
import type { Tool } from '@modelcontextprotocol/client';

export function firstOfEachName(tools: readonly Tool[]): { tools: Tool[]; repeated: string[] } {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const kept: Tool[] = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      repeated.add(tool.name);
      continue;
    }
    seen.add(tool.name);
    kept.push(tool);
  }
  return { tools: kept, repeated: [...repeated] };
}
