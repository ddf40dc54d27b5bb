/**
 * What a tool says about its MCP Apps view (the `io.modelcontextprotocol/ui` extension): the `ui://` resource that
 * holds it, and who may call the tool. The server's word is untrusted: only a bounded `ui://` URI is taken, and a
 * visibility that names the app alone keeps the tool away from the model (it is never widened by what it says).
 */
import type { Tool } from '@modelcontextprotocol/client';

const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
export const APP_HTML_MIME_TYPE = 'text/html;profile=mcp-app';
const MAX_RESOURCE_URI_LENGTH = 2_048;

interface ToolUi {
  /** The `ui://` resource holding the tool's view, when it has one. */
  resourceUri?: string;
  /** True when `_meta.ui.visibility` names the app but not the model: the model is never offered the tool. */
  appOnly: boolean;
  /** False when `_meta.ui.visibility` is given and leaves the app out (`["model"]`): no view may call the tool. */
  appCallable: boolean;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function viewUri(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith('ui://') && value.length <= MAX_RESOURCE_URI_LENGTH
    ? value
    : undefined;
}

export function toolUiOf(tool: Pick<Tool, '_meta'>): ToolUi {
  const meta = record(tool._meta);
  const ui = record(meta?.ui);
  // `ui/resourceUri` is the extension's earlier, flat key; servers built with its helpers still send both.
  const resourceUri = viewUri(ui?.resourceUri) ?? viewUri(meta?.['ui/resourceUri']);
  const visibility = Array.isArray(ui?.visibility) ? ui.visibility.slice(0, 8) : undefined;
  const appOnly = visibility?.includes('app') === true && !visibility.includes('model');
  const appCallable = visibility === undefined || visibility.includes('app');
  return { ...(resourceUri === undefined ? {} : { resourceUri }), appOnly, appCallable };
}

/** The client capability that tells servers this host renders MCP Apps views. */
export const UI_EXTENSION_CAPABILITY = { [UI_EXTENSION_ID]: { mimeTypes: [APP_HTML_MIME_TYPE] } };
