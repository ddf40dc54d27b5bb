/**
 * What the model is offered from a catalog: every tool but those an MCP App keeps to itself
 * (`_meta.ui.visibility: ["app"]`), as provider-neutral definitions, or — when the catalog would cost too many
 * tokens — either the discovery meta-tools or, for a model whose provider searches deferred tools itself, every
 * definition marked `deferLoading` (the host's own tools stay loaded). Decided once per catalog and provider, so
 * the offered tools stay byte-stable while they do.
 *
 * A deferred tool the provider's search found is called by its own name: the call takes the model's normal path
 * (rules, consent, pinning, budgets, audit), exactly like a tool offered in full.
 */
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import { toolUiOf } from '../catalog/tool-ui.js';
import type { NativeToolSearch, ToolDiscovery } from '../config/types.js';
import type { ExecuteToolCall } from '../loop/tool-call-types.js';
import type { LlmProvider, ToolDefinition } from '../providers/types.js';
import { HOST_TOOLS_SERVER } from './host-tools-server.js';
import { DiscoveryCatalog, discoveryApplies, metaToolDefinitions, withDiscovery } from './tool-discovery.js';

interface OfferedTools {
  /** The tools the model may call: an app's own tools are neither offered to it nor callable by it. */
  modelCatalog(catalog: ToolCatalog): ToolCatalog;
  /** Every tool the model may call, as definitions. */
  definitions(catalog: ToolCatalog): ToolDefinition[];
  /**
   * What one turn offers: the definitions, the discovery meta-tools, or the definitions deferred to `provider`'s
   * own tool search when it has one (`nativeToolSearch`).
   */
  forTurn(catalog: ToolCatalog, provider?: Pick<LlmProvider, 'nativeToolSearch'>): ToolDefinition[];
  /** The model's executor, with calls of the discovery meta-tools answered or routed into it. */
  withDiscovery(execute: ExecuteToolCall): ExecuteToolCall;
}

export function createOfferedTools(
  toolDiscovery: ToolDiscovery = 'auto',
  nativeToolSearch: NativeToolSearch = 'auto',
): OfferedTools {
  const modelCatalogs = new WeakMap<ToolCatalog, ToolCatalog>();
  const modelCatalog = (catalog: ToolCatalog): ToolCatalog => {
    let filtered = modelCatalogs.get(catalog);
    if (!filtered) {
      filtered = catalog.filter((entry) => !toolUiOf(entry.tool).appOnly);
      modelCatalogs.set(catalog, filtered);
    }
    return filtered;
  };
  const definitions = (catalog: ToolCatalog): ToolDefinition[] =>
    modelCatalog(catalog).entries.map((entry) => ({
      name: entry.name,
      description: entry.tool.description ?? entry.tool.title ?? '',
      inputSchema: entry.tool.inputSchema as Record<string, unknown>,
    }));

  let discovered: { catalog: ToolCatalog; discovery: DiscoveryCatalog | undefined } | undefined;
  const discoveryFor = (catalog: ToolCatalog): DiscoveryCatalog | undefined => {
    if (discovered?.catalog !== catalog) {
      // The model searches only what it may call: an app's own tools are left out here too.
      const offered = modelCatalog(catalog).entries;
      const applies = discoveryApplies(toolDiscovery, offered);
      discovered = { catalog, discovery: applies ? new DiscoveryCatalog(offered) : undefined };
    }
    return discovered.discovery;
  };

  const deferredDefinitions = new WeakMap<ToolCatalog, ToolDefinition[]>();
  const deferredFor = (catalog: ToolCatalog): ToolDefinition[] => {
    let deferred = deferredDefinitions.get(catalog);
    if (!deferred) {
      const own = new Set(
        modelCatalog(catalog)
          .entries.filter((entry) => entry.server === HOST_TOOLS_SERVER)
          .map((entry) => entry.name),
      );
      deferred = definitions(catalog).map((definition) =>
        own.has(definition.name) ? definition : { ...definition, deferLoading: true },
      );
      deferredDefinitions.set(catalog, deferred);
    }
    return deferred;
  };
  // Whether the last turn offered the meta-tools: only then are calls by their names answered here.
  let metaToolsOffered = false;

  return {
    modelCatalog,
    definitions,
    forTurn(catalog, provider) {
      const discovery = discoveryFor(catalog);
      const native = nativeToolSearch !== 'never' && provider?.nativeToolSearch === true;
      metaToolsOffered = discovery !== undefined && !native;
      if (discovery === undefined) return definitions(catalog);
      return metaToolsOffered ? metaToolDefinitions(discovery.entries.length) : deferredFor(catalog);
    },
    withDiscovery: (execute) => withDiscovery(execute, () => (metaToolsOffered ? discovered?.discovery : undefined)),
  };
}
