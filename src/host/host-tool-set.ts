/**
 * The host's own tools, beside the servers': reading the rest of a cut result (offered once there is something to
 * read), the skills' tools, and `mcp-host__<server>__list_resources` / `…__read_resource` for every server that
 * offers resources.
 */
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { handleReadStoredResult, readStoredResultTool } from '../content/read-stored-result-tool.js';
import type { ResultStore } from '../content/result-store.js';
import type { HostToolHandler } from '../loop/execute-tool-call.js';
import { HOST_TOOLS_SERVER } from './host-tools-server.js';
import { readAcrossStores } from './read-across-stores.js';

interface ToolSource {
  entries(): readonly CatalogEntry[];
  readonly handlers: ReadonlyMap<string, HostToolHandler>;
}

interface HostToolSetOptions {
  /** The host's store of cut results. */
  results: ResultStore;
  skills: ToolSource;
  resources: ToolSource;
  /** The tools offered changed (the stored-result tool appeared): the catalog must be built again. */
  onOfferChanged: () => void;
}

interface HostToolSet {
  /** Every host tool's handler by its catalog name (resource tools as of the last `entries()`). */
  readonly handlers: ReadonlyMap<string, HostToolHandler>;
  /** The host tools to add to the catalog now. */
  entries(): CatalogEntry[];
  /** A result was cut and its rest stored: from now on the model is offered the tool that reads it. */
  resultStored(): void;
  /**
   * A conversation's store of compacted tool results: the stored-result tool reads it too, and is offered in every
   * conversation from its start, so the tools array does not change when compaction first refers to one.
   */
  addConversationStore(store: ResultStore): void;
}

const readStoredResultEntry: CatalogEntry = {
  name: readStoredResultTool.name,
  server: HOST_TOOLS_SERVER,
  tool: {
    name: readStoredResultTool.name,
    description: readStoredResultTool.description,
    inputSchema: readStoredResultTool.inputSchema as never,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
};

export function createHostToolSet(options: HostToolSetOptions): HostToolSet {
  let storedAnything = false;
  const conversationStores: ResultStore[] = [];
  const handlers = new Map<string, HostToolHandler>([
    [
      readStoredResultTool.name,
      (args) =>
        handleReadStoredResult(
          readAcrossStores(options.results, () => conversationStores),
          args,
        ),
    ],
    ...options.skills.handlers,
  ]);
  return {
    handlers,
    entries() {
      const resourceEntries = options.resources.entries();
      for (const [name, handler] of options.resources.handlers) handlers.set(name, handler);
      return [
        ...(storedAnything || conversationStores.length > 0 ? [readStoredResultEntry] : []),
        ...options.skills.entries(),
        ...resourceEntries,
      ];
    },
    resultStored() {
      if (storedAnything) return;
      storedAnything = true;
      options.onOfferChanged();
    },
    addConversationStore(store) {
      if (conversationStores.length === 0) options.onOfferChanged();
      conversationStores.push(store);
    },
  };
}
