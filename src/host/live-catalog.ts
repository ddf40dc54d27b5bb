/**
 * The catalog as servers change it. `list_changed` (or a restart) marks a server stale and
 * re-lists it in the background (single-flight per server); the catalog the model sees is
 * swapped only when a turn begins, so it never changes in the middle of one. It also remembers
 * what review withheld (to explain a call of such a tool) and every server's latest raw listing.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { type CatalogEntry, ToolCatalog } from '../catalog/tool-catalog.js';
import { assignToolNames, type NamedToolEntry } from '../catalog/tool-naming.js';
import { LIST_CHANGED_SETTLE_MS, type ServerConnection, type ServerState } from '../connections/server-connection.js';
import { fingerprintDefinition } from '../policy/tool-definition.js';
import { schemaExpansionProblem } from '../providers/schema/index.js';

/** How long a turn (or a call) waits for re-listings already in flight before going on without them, by default. */
const DEFAULT_RELIST_WAIT_MS = 5_000;
/** The longest pause between re-listings while `list_changed` keeps coming (and after a failed one). */
export const RELIST_MAX_PAUSE_MS = 1_000;

/** What review decided about one server's listing. */
export interface ReviewedTools {
  /** The tools the model may see. */
  exposed: Tool[];
  /** Listed but kept from the model: the catalog name, and what to tell a model that calls it anyway. */
  withheld?: ReadonlyArray<WithheldTool>;
}

interface WithheldTool {
  name: string;
  /** For the model, which follows "Unknown tool …". */
  explanation: string;
  /** For the person who calls it by name, when review said it in their words. */
  forPerson?: string;
}

/** A listed tool the host cannot run at all, whatever the user approves: withheld, and why. */
interface UnsupportedTool {
  /** The catalog name it would have. */
  name: string;
  /** The server's own name for it. */
  tool: string;
  reason: string;
}

/**
 * Tools that require MCP tasks (`execution.taskSupport: "required"`) are withheld: a plain call is refused by such a
 * server, and the client library has no task client (no task-augmented call, `tasks/get` polling or `tasks/result`)
 * while the protocol is moving tasks out of its core into an extension.
 */
const TASKS_REQUIRED_REASON = 'it requires MCP tasks (execution.taskSupport "required"), which this host does not run';

/** Tools whose input schema no provider could be offered (see `providers/schema/expansion-budget.ts`) are withheld too. */
function unsupportedReason(tool: Tool): string | undefined {
  const execution = (tool as { execution?: { taskSupport?: unknown } }).execution;
  if (execution?.taskSupport === 'required') return TASKS_REQUIRED_REASON;
  return schemaExpansionProblem(tool.inputSchema);
}

interface LiveCatalogOptions {
  /** Decides which of a server's listed tools the model may see (pinning withholds some). */
  review?: (server: string, tools: Tool[]) => Promise<Tool[] | ReviewedTools> | Tool[] | ReviewedTools;
  /** Tools the host itself provides, added to every catalog. */
  extraEntries?: () => ToolCatalog['entries'];
  onDiagnostic?: (message: string) => void;
  /** The servers in the config's order: in a name clash the first keeps the name (see tool-naming.ts). */
  serverOrder?: readonly string[];
  /** How long a turn or a call waits for a re-listing in flight. Default DEFAULT_RELIST_WAIT_MS. */
  relistWaitMs?: number;
}

export class LiveCatalog {
  private readonly toolsByServer = new Map<string, Tool[]>();
  /** Each server's latest listing as the server sent it, before review. */
  private readonly listings = new Map<string, Tool[]>();
  private readonly withheldByServer = new Map<string, ReadonlyArray<WithheldTool>>();
  private readonly unsupportedByServer = new Map<string, UnsupportedTool[]>();
  /** What was last said on stderr about a server's unsupported tools, so a re-listing does not repeat it. */
  private readonly unsupportedSaid = new Map<string, string>();
  /** The withheld tools of the catalog in force, by catalog name. */
  private activeWithheld = new Map<string, WithheldTool>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Per server: how many `list_changed` (or restarts) arrived, and up to which one the listing was reviewed. */
  private readonly changesSeen = new Map<string, number>();
  private readonly changesReviewed = new Map<string, number>();
  private readonly lastChangeAt = new Map<string, number>();
  private active: ToolCatalog = ToolCatalog.empty();
  private dirty = true;
  private revision = 0;
  /** The names of every listed tool, decided here once for review, the catalog and routing alike. */
  private names: { key: string; generation: number; byPair: Map<string, NamedToolEntry> } | undefined;
  /** Bumped whenever a listing or a reviewed list changes: the names are derived again only then. */
  private listedGeneration = 0;

  private get relistWaitMs(): number {
    return this.options.relistWaitMs ?? DEFAULT_RELIST_WAIT_MS;
  }

  constructor(
    private readonly connections: ReadonlyMap<string, ServerConnection>,
    private readonly options: LiveCatalogOptions = {},
  ) {}

  /** Initial tool lists, as listed at start-up. */
  async seed(lists: ReadonlyArray<{ server: string; tools: Tool[] }>): Promise<void> {
    // Every listing first: reviewing one server looks at the others' tool names.
    for (const { server, tools } of lists) this.listings.set(server, tools);
    this.listedGeneration++;
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
    return this.activeWithheld.get(name)?.explanation;
  }

  /** The same told to the person who called the tool by name: a whole sentence naming the tool. */
  describeMissingToPerson(name: string): string | undefined {
    const withheld = this.activeWithheld.get(name);
    if (withheld === undefined) return undefined;
    return withheld.forPerson ?? `${name}: ${withheld.explanation}`;
  }

  /** The catalog names of every tool the servers other than `server` list now, withheld ones included. */
  listedToolNames(server: string): string[] {
    return [...this.namedTools().values()].filter((entry) => entry.server !== server).map((entry) => entry.name);
  }

  /**
   * The name the model sees for a listed tool: the same when it is reviewed, offered, withheld or routed. Decided
   * over every tool listed now (withheld ones too), so approving or withholding a tool never renames another.
   */
  nameOf(server: string, tool: string): string | undefined {
    return this.namedTools().get(pairKey(server, tool))?.name;
  }

  private namedTools(): Map<string, NamedToolEntry> {
    // Asked once per tool during a review: re-derive only when a listing changed, or 10,000 tools cost minutes.
    if (this.names !== undefined && this.names.generation === this.listedGeneration) return this.names.byPair;
    const pairs = new Map<string, { server: string; tool: string }>();
    for (const source of [this.listings, this.toolsByServer]) {
      for (const [server, tools] of source) {
        for (const tool of tools) pairs.set(pairKey(server, tool.name), { server, tool: tool.name });
      }
    }
    const key = [...pairs.keys()].sort().join('\n');
    if (this.names?.key !== key) {
      const named = assignToolNames([...pairs.values()], { serverOrder: this.options.serverOrder ?? [] });
      this.names = {
        key,
        generation: this.listedGeneration,
        byPair: new Map(named.map((entry) => [pairKey(entry.server, entry.tool), entry])),
      };
    }
    this.names.generation = this.listedGeneration;
    return this.names.byPair;
  }

  /** The listed tools of `server` the host cannot run (they require MCP tasks), with the reason. */
  unsupportedTools(server: string): readonly UnsupportedTool[] {
    return this.unsupportedByServer.get(server) ?? [];
  }

  /** How many times the catalog has changed; tests and `servers` read it. */
  get version(): number {
    return this.revision;
  }

  /**
   * A server said its tools changed: re-list it in the background. A storm of notifications costs one pending
   * re-listing per server, not one each: while one runs, later changes are only counted, and it lists again
   * once more if any arrived meanwhile.
   */
  markChanged(server: string): void {
    const connection = this.connections.get(server);
    if (!connection) return;
    this.changesSeen.set(server, (this.changesSeen.get(server) ?? 0) + 1);
    this.lastChangeAt.set(server, Date.now());
    if (this.inFlight.has(server)) return;
    const refresh = this.relistUntilCurrent(server, connection).finally(() => {
      if (this.inFlight.get(server) === refresh) this.inFlight.delete(server);
    });
    this.inFlight.set(server, refresh);
  }

  /** Re-lists until a listing asked for after the latest change is reviewed; a failure is reported once per burst. */
  private async relistUntilCurrent(server: string, connection: ServerConnection): Promise<void> {
    let failure: unknown;
    for (;;) {
      const change = this.changesSeen.get(server) ?? 0;
      try {
        // The listing this returns was asked for after `change` arrived.
        const tools = await connection.refreshTools();
        // The server was restarted or switched off meanwhile: this listing is of a connection gone.
        if (this.connections.get(server) !== connection) break;
        this.listings.set(server, tools);
        this.listedGeneration++;
        await this.review(server, tools);
        if (change > (this.changesReviewed.get(server) ?? 0)) this.changesReviewed.set(server, change);
        this.dirty = true;
        failure = undefined;
      } catch (error) {
        failure = error;
      }
      // A storm goes on for a while: wait until it pauses (a failure waits longer, not to hammer the server), then
      // list once more only if changes came meanwhile.
      await this.pauseBeforeRelisting(server, failure !== undefined);
      if ((this.changesSeen.get(server) ?? 0) === change || connection.state === 'closed') break;
    }
    if (failure !== undefined) {
      this.options.onDiagnostic?.(
        `server "${server}" could not re-list its tools: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
    }
  }

  /**
   * Right before a call runs: is the tool the model chose (from the catalog of its turn) still the one its server
   * lists now, as reviewed? When the server has said its tools changed, this waits for the new listing (at most
   * `relistWaitMs`) so a rug pull cannot slip a call in under the old approval. Returns why the call must not run,
   * or undefined when it may.
   */
  async confirmCurrent(entry: CatalogEntry, signal?: AbortSignal): Promise<string | undefined> {
    return this.confirmCurrentAtOnce(entry, signal);
  }

  /**
   * {@link confirmCurrent}, answered without a promise when there is nothing to wait for (the server has not said its
   * tools changed, or the call was cancelled): the case of almost every call, which then costs no turn of the event
   * loop.
   */
  confirmCurrentAtOnce(entry: CatalogEntry, signal?: AbortSignal): string | undefined | Promise<string | undefined> {
    const server = entry.server;
    const connection = this.connections.get(server);
    // A server given up on runs nothing: its own error ("not restarted") says more than a stale-list refusal.
    if (connection === undefined || connection.state === 'failed') return undefined;
    if (!this.isStale(server) || signal?.aborted) return this.compareWithCurrent(entry);
    return this.waitForListing(entry, connection, signal);
  }

  /** Waits (at most `relistWaitMs`) for the listing asked for after the server's latest change, then compares. */
  private async waitForListing(
    entry: CatalogEntry,
    connection: ServerConnection,
    signal: AbortSignal | undefined,
  ): Promise<string | undefined> {
    const server = entry.server;
    let deadline = Date.now() + this.relistWaitMs;
    let askedAgain = false;
    while (this.isStale(server) && !signal?.aborted) {
      // Read afresh each time round: a restart changes it while this waits.
      const state = connection.state as ServerState;
      if (state === 'failed') return undefined;
      // A restart in progress is bounded by its own start-up timeout: the wait for the new listing starts after it,
      // so a server slow to start again is not mistaken for one that will not list its tools.
      if (state === 'restarting' || state === 'connecting') {
        deadline = Math.max(deadline, Date.now() + this.relistWaitMs);
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (!this.inFlight.has(server)) {
        // A re-listing that failed left nothing in flight: ask once more rather than trust the old list.
        if (askedAgain) break;
        askedAgain = true;
        this.markChanged(server);
      }
      await waitAtMost(this.inFlight.get(server), left, signal);
    }
    return this.compareWithCurrent(entry);
  }

  /** Why a call of `entry` must not run against the listing as it stands, or undefined when it may. */
  private compareWithCurrent(entry: CatalogEntry): string | undefined {
    const server = entry.server;
    const quoted = `"${entry.name}"`;
    if (this.isStale(server)) {
      return `${quoted} was not run: the server "${server}" said its tools changed and has not listed them again within ${this.relistWaitMs / 1000} s, so the definition the call was chosen from could not be checked against the current one. Try again later.`;
    }
    const current = this.toolsByServer.get(server)?.find((tool) => tool.name === entry.tool.name);
    if (current === entry.tool) return undefined;
    if (current === undefined) {
      const withheld = this.withheldByServer.get(server)?.find((item) => item.name === entry.name);
      return withheld
        ? `${quoted} was not run: its definition changed after this turn began and ${withheld.explanation}`
        : `${quoted} was not run: the server "${server}" no longer offers it.`;
    }
    if (fingerprintDefinition(current) === fingerprintDefinition(entry.tool)) return undefined;
    return `${quoted} was not run: its definition changed after this turn began (the server "${server}" re-listed its tools). The next turn offers the current definition.`;
  }

  private async pauseBeforeRelisting(server: string, failed: boolean): Promise<void> {
    const deadline = Date.now() + RELIST_MAX_PAUSE_MS;
    for (;;) {
      const now = Date.now();
      const quietFor = now - (this.lastChangeAt.get(server) ?? 0);
      const wanted = failed ? deadline - now : Math.min(LIST_CHANGED_SETTLE_MS - quietFor, deadline - now);
      if (wanted <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wanted).unref());
    }
  }

  private isStale(server: string): boolean {
    return (this.changesSeen.get(server) ?? 0) > (this.changesReviewed.get(server) ?? 0);
  }

  /** Lists one server's tools again and reviews them now (a restart, an approval made elsewhere): the catalog after. */
  relist(server: string): Promise<ToolCatalog> {
    this.markChanged(server);
    return this.beginTurn();
  }

  /** Called when a turn begins: applies finished re-listings (waiting briefly for those in flight). */
  async beginTurn(): Promise<ToolCatalog> {
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inFlight.values()]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, this.relistWaitMs);
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
    let catalog = ToolCatalog.build(lists, {
      names: (server, tool) => this.nameOf(server, tool),
      serverOrder: this.options.serverOrder ?? [],
    });
    const extra = this.options.extraEntries?.() ?? [];
    if (extra.length > 0) catalog = catalog.withEntries(extra);
    this.active = catalog;
    this.activeWithheld = new Map([...this.withheldByServer.values()].flat().map((item) => [item.name, item] as const));
    this.revision += 1;
  }

  /** A server was switched off or is being restarted: its tools leave the catalog now (the next one lists afresh). */
  forget(server: string): void {
    this.toolsByServer.delete(server);
    this.listings.delete(server);
    this.withheldByServer.delete(server);
    this.unsupportedByServer.delete(server);
    this.unsupportedSaid.delete(server);
    // A re-listing of the old connection may still run; it stores nothing now, and must not block the next one.
    this.inFlight.delete(server);
    this.changesReviewed.set(server, this.changesSeen.get(server) ?? 0);
    this.listedGeneration++;
    this.dirty = true;
    this.rebuild();
  }

  /** Marks the catalog for rebuilding at the next turn (e.g. after an approval changed what is withheld). */
  invalidate(): void {
    this.dirty = true;
  }

  private async review(server: string, listed: Tool[]): Promise<void> {
    // Tools the host cannot run are not put to review: no approval could make them callable.
    const unsupported: UnsupportedTool[] = [];
    const tools = listed.filter((tool) => {
      const reason = unsupportedReason(tool);
      if (reason === undefined) return true;
      unsupported.push({ name: this.nameOf(server, tool.name) ?? tool.name, tool: tool.name, reason });
      return false;
    });
    const reviewed = this.options.review ? await this.options.review(server, tools) : tools;
    const { exposed, withheld = [] } = Array.isArray(reviewed) ? { exposed: reviewed } : reviewed;
    this.toolsByServer.set(server, exposed);
    this.listedGeneration++;
    this.withheldByServer.set(server, [
      ...withheld,
      ...unsupported.map((item) => ({ name: item.name, explanation: `${item.reason}, so it cannot be called.` })),
    ]);
    this.unsupportedByServer.set(server, unsupported);
    this.reportUnsupported(server, unsupported);
  }

  private reportUnsupported(server: string, unsupported: readonly UnsupportedTool[]): void {
    const names = unsupported.map((item) => JSON.stringify(item.tool.slice(0, 100))).join(', ');
    if ((this.unsupportedSaid.get(server) ?? '') === names) return;
    this.unsupportedSaid.set(server, names);
    const needTasks = unsupported.filter((item) => item.reason === TASKS_REQUIRED_REASON);
    if (needTasks.length > 0) {
      const count = needTasks.length === 1 ? 'its tool' : `${needTasks.length} of its tools`;
      const taskNames = needTasks.map((item) => JSON.stringify(item.tool.slice(0, 100))).join(', ');
      this.options.onDiagnostic?.(
        `server "${server}": ${count} ${taskNames} ${needTasks.length === 1 ? 'is' : 'are'} withheld: ${needTasks.length === 1 ? 'it requires' : 'they require'} MCP tasks (execution.taskSupport "required"), which this host does not run`,
      );
    }
    for (const item of unsupported) {
      if (item.reason === TASKS_REQUIRED_REASON) continue;
      this.options.onDiagnostic?.(
        `server "${server}": its tool ${JSON.stringify(item.tool.slice(0, 100))} is withheld: ${item.reason}`,
      );
    }
  }
}

function pairKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

/** Resolves when `promise` settles, `ms` pass or `signal` aborts, whichever is first. */
async function waitAtMost(promise: Promise<unknown> | undefined, ms: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    Promise.resolve(promise).catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
      onAbort = () => resolve(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal?.removeEventListener('abort', onAbort);
}
