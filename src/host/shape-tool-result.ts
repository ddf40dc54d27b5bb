/** MCP result → what the model sees for one call: content mapping, then the output budget. */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { mapToolResult } from '../content/map-tool-result.js';
import type { ShapedResult } from '../loop/execute-tool-call.js';

export function shapeToolResult(raw: CallToolResult, entry: CatalogEntry): ShapedResult {
  return mapToolResult(raw, { outputSchema: entry.tool.outputSchema });
}
