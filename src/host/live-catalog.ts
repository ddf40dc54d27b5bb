/**
 * The catalog as servers change it. `list_changed` (or a restart) marks a server stale and
 * re-lists it in the background (single-flight per server); the catalog the model sees is
 * swapped only when a turn begins, so it never changes in the middle of one. It also remembers
 * what review withheld (to explain a call of such a tool) and every server's latest raw listing.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { assignToolNames } from '../catalog/tool-naming.js';
import type { ServerConnection } from '../connections/server-connection.js';

/** How long a turn waits for re-listings already in flight before going on with the last catalog. */
export const REFRESH_WAIT_MS = 5_000;

/** What review decided about one server's listing. */
export interface ReviewedTools {
  /** The tools the model may see. */
  exposed: Tool[];
  /** Listed but kept from the model: the catalog name, and what to tell a model that calls it anyway. */
  withheld?: ReadonlyArray<{ name: string; explanation: string }>;
}

export interface LiveCatalogOptions {
  /** Decides which of a server's listed tools the model may see (pinning withholds some). */
  review?: (server: string, tools: Tool[]) => Promise<Tool[] | ReviewedTools> | Tool[] | ReviewedTools;
  /** Tools the host itself provides, added to every catalog. */
  extraEntries?: () => ToolCatalog['entries'];
  onDiagnostic?: (message: string) => void;
}

export class LiveCatalog {
  private readonly toolsByServer = new Map<string, Tool[]>();
  /** Each server's latest listing as the server sent it, before review. */
  private readonly listings = new Map<string, Tool[]>();
  private readonly withheldByServer = new Map<string, ReadonlyArray<{ name: string; explanation: string }>>();
  /** The withheld tools of the catalog in force, by catalog name. */
  private activeWithheld = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private active: ToolCatalog = ToolCatalog.empty();
  private dirty = true;
  private revision = 0;

  constructor(
    private readonly connections: ReadonlyMap<string, ServerConnection>,
    private readonly options: LiveCatalogOptions = {},
  ) {}

  /** Initial tool lists, as listed at start-up. */
  async seed(lists: ReadonlyArray<{ server: string; tools: Tool[] }>): Promise<void> {
    // Every listing first: reviewing one server looks at the others' tool names.
    for (const { server, tools } of lists) this.listings.set(server, tools);
    for (const { server, tools } of lists) await this.review(server, tools);
    this.dirty = true;
    this.rebuild();
  }

  /** The catalog in force: the one the current turn (or a direct call) uses. */
  current(): ToolCatalog {
    return this.active;
  }

  /**
   * For a name the catalog in force does not offer: why, when review withheld a tool of that name (the model gets
   * this instead of a bare "unknown tool").
   */
  describeMissing(name: string): string | undefined {
    return this.activeWithheld.get(name);
  }

  /** The catalog names of every tool the servers other than `server` list now, withheld ones included. */
  listedToolNames(server: string): string[] {
    const pairs = [...this.listings].flatMap(([name, tools]) =>
      tools.map((tool) => ({ server: name, tool: tool.name })),
    );
    return assignToolNames(pairs)
      .filter((entry) => entry.server !== server)
      .map((entry) => entry.name);
  }

  /** How many times the catalog has changed; tests and `servers` read it. */
  get version(): number {
    return this.revision;
  }

  /** A server said its tools changed: re-list it in the background. */
  markChanged(server: string): void {
    const connection = this.connections.get(server);
    if (!connection) return;
    const refresh = connection
      .refreshTools()
      .then(async (tools) => {
        this.listings.set(server, tools);
        await this.review(server, tools);
        this.dirty = true;
      })
      .catch((error: unknown) => {
        this.options.onDiagnostic?.(
          `server "${server}" could not re-list its tools: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => {
        if (this.inFlight.get(server) === refresh) this.inFlight.delete(server);
      });
    this.inFlight.set(server, refresh);
  }

  /** Called when a turn begins: applies finished re-listings (waiting briefly for those in flight). */
  async beginTurn(): Promise<ToolCatalog> {
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inFlight.values()]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, REFRESH_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    this.rebuild();
    return this.active;
  }

  /** Rebuilds when something changed; host tools may appear or go with the servers that offer them. */
  rebuild(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const lists = [...this.toolsByServer].map(([server, tools]) => ({ server, tools }));
    let catalog = ToolCatalog.build(lists);
    const extra = this.options.extraEntries?.() ?? [];
    if (extra.length > 0) catalog = catalog.withEntries(extra);
    this.active = catalog;
    this.activeWithheld = new Map(
      [...this.withheldByServer.values()].flat().map((item) => [item.name, item.explanation] as const),
    );
    this.revision += 1;
  }

  /** Marks the catalog for rebuilding at the next turn (e.g. after an approval changed what is withheld). */
  invalidate(): void {
    this.dirty = true;
  }

  private async review(server: string, tools: Tool[]): Promise<void> {
    const reviewed = this.options.review ? await this.options.review(server, tools) : tools;
    const { exposed, withheld = [] } = Array.isArray(reviewed) ? { exposed: reviewed } : reviewed;
    this.toolsByServer.set(server, exposed);
    this.withheldByServer.set(server, withheld);
  }
}
