/**
 * The tools of every connected server under one namespace, in a deterministic order.
 *
 * Names are `server__tool` (see tool-naming.ts) and every name routes back exactly to the server
 * and the tool's original name. A catalog is immutable: a refresh builds a new one, so the tools
 * the model sees never change in the middle of a turn.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { closeNames } from '../text/close-names.js';
import { assignToolNames, type ToolNamingOptions } from './tool-naming.js';

export interface CatalogEntry {
  /** The namespaced name the model sees. */
  name: string;
  server: string;
  /** The tool exactly as its server listed it. */
  tool: Tool;
}

export class ToolCatalog {
  private readonly byName: ReadonlyMap<string, CatalogEntry>;

  private constructor(readonly entries: readonly CatalogEntry[]) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  static empty(): ToolCatalog {
    return new ToolCatalog([]);
  }

  /**
   * Builds the catalog from each server's tool list; the result does not depend on listing order. `names`, when
   * given, is the one place names were decided (over every listed tool, withheld ones too); else they are assigned
   * here from these lists.
   */
  static build(
    servers: ReadonlyArray<{ server: string; tools: readonly Tool[] }>,
    options: ToolNamingOptions & { names?: (server: string, tool: string) => string | undefined } = {},
  ): ToolCatalog {
    const toolsByKey = new Map<string, Tool>();
    const keys: Array<{ server: string; tool: string }> = [];
    for (const { server, tools } of servers) {
      for (const tool of tools) {
        const key = `${server}\u0000${tool.name}`;
        // A server listing the same name twice: keep the first, as the server would route to it.
        if (toolsByKey.has(key)) continue;
        toolsByKey.set(key, tool);
        keys.push({ server, tool: tool.name });
      }
    }
    const given = options.names;
    const assigned =
      given === undefined ? undefined : keys.map((key) => ({ ...key, name: given(key.server, key.tool) }));
    const named =
      assigned?.every((entry): entry is typeof entry & { name: string } => entry.name !== undefined) === true
        ? assigned
        : assignToolNames(keys, options);
    const entries = named
      .map(({ server, tool, name }) => ({ name, server, tool: toolsByKey.get(`${server}\u0000${tool}`)! }))
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    return new ToolCatalog(entries);
  }

  /** A catalog with some entries left out (e.g. tools withheld until approved). */
  filter(keep: (entry: CatalogEntry) => boolean): ToolCatalog {
    return new ToolCatalog(this.entries.filter(keep));
  }

  /** Adds host-provided entries (e.g. `read_stored_result`), keeping the order deterministic. */
  withEntries(extra: readonly CatalogEntry[]): ToolCatalog {
    const entries = [...this.entries, ...extra].sort((left, right) =>
      left.name < right.name ? -1 : left.name > right.name ? 1 : 0,
    );
    return new ToolCatalog(entries);
  }

  resolve(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
  }

  /** Names close to an unknown one, for the error the model receives. */
  suggest(name: string, limit = 3): string[] {
    return closeNames(
      name,
      this.entries.map((entry) => entry.name),
      limit,
    );
  }

  forServer(server: string): CatalogEntry[] {
    return this.entries.filter((entry) => entry.server === server);
  }

  get size(): number {
    return this.entries.length;
  }
}
