/**
 * What the model is offered from a catalog: every tool but those an MCP App keeps to itself
 * (`_meta.ui.visibility: ["app"]`), as provider-neutral definitions, or the discovery meta-tools when the catalog
 * would cost too many tokens. Both are decided once per catalog, so the offered tools stay byte-stable while it does.
 */
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import { toolUiOf } from '../catalog/tool-ui.js';
import type { ToolDiscovery } from '../config/types.js';
import type { ExecuteToolCall } from '../loop/tool-call-types.js';
import type { ToolDefinition } from '../providers/types.js';
import { DiscoveryCatalog, discoveryApplies, metaToolDefinitions, withDiscovery } from './tool-discovery.js';

export interface OfferedTools {
  /** The tools the model may call: an app's own tools are neither offered to it nor callable by it. */
  modelCatalog(catalog: ToolCatalog): ToolCatalog;
  /** Every tool the model may call, as definitions. */
  definitions(catalog: ToolCatalog): ToolDefinition[];
  /** What one turn offers: the definitions, or the discovery meta-tools. */
  forTurn(catalog: ToolCatalog): ToolDefinition[];
  /** The model's executor, with calls of the discovery meta-tools answered or routed into it. */
  withDiscovery(execute: ExecuteToolCall): ExecuteToolCall;
}

export function createOfferedTools(toolDiscovery: ToolDiscovery = 'auto'): OfferedTools {
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

  return {
    modelCatalog,
    definitions,
    forTurn(catalog) {
      const discovery = discoveryFor(catalog);
      return discovery === undefined ? definitions(catalog) : metaToolDefinitions(discovery.entries.length);
    },
    withDiscovery: (execute) => withDiscovery(execute, () => discovered?.discovery),
  };
}
