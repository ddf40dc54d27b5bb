/**
 * In the terminal a tool's MCP Apps view cannot be shown: one line says the tool has one and where the web UI shows
 * it. The model gets the tool's result as usual.
 */
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import { toolUiOf } from '../catalog/tool-ui.js';
import { stripControlCodes } from '../text/strip-control-codes.js';

export function viewNote(catalog: ToolCatalog, toolName: string): string | undefined {
  const entry = catalog.resolve(toolName);
  const uri = entry ? toolUiOf(entry.tool).resourceUri : undefined;
  if (uri === undefined) return undefined;
  return `${toolName} has an interactive view (${stripControlCodes(uri)}); open it in the web UI: run \`mcp-host ui\`, then go to /#/tools?tool=${encodeURIComponent(toolName)}`;
}
