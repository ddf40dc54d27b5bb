/**
 * The timeout step of a call: per-tool override > `--timeout` > the server's > the host's defaults, and where the
 * call's progress goes (progress resets the timer up to the hard maximum).
 */
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { serverConfigOf } from '../config/server-config-of.js';
import { DEFAULT_TOOL_TIMEOUT_MS, type HostConfig } from '../config/types.js';
import type { CallToolOptions } from '../connections/server-connection.js';
import type { ToolCallDependencies } from './execute-tool-call.js';
import type { ToolProgressUpdate } from './tool-call-types.js';

/** Progress notifications extend a call's timeout, but never past this, unless configured. */
const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 10 * 60_000;

function callTimeouts(
  config: HostConfig,
  entry: CatalogEntry,
  timeoutOverride?: number,
): Pick<CallToolOptions, 'timeoutMs' | 'maxTotalTimeoutMs'> {
  const server = serverConfigOf(config, entry.server);
  const tool = server?.tools?.[entry.tool.name];
  const timeoutMs = tool?.timeoutMs ?? timeoutOverride ?? server?.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxTotalTimeoutMs = Math.max(
    timeoutMs,
    tool?.maxTotalTimeoutMs ?? server?.maxTotalTimeoutMs ?? config.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  );
  return { timeoutMs, maxTotalTimeoutMs };
}

interface CallOptionsSettings {
  config: HostConfig;
  /** Overrides every server's `timeoutMs` (a per-tool override still wins). */
  toolTimeoutMs?: number;
  /** Where progress goes when the call's context names no place of its own. */
  onProgress?: (update: ToolProgressUpdate) => void;
}

export function createCallOptions(settings: CallOptionsSettings): ToolCallDependencies['callOptions'] {
  return (entry, context) => {
    const onProgress = context.onProgress ?? settings.onProgress;
    const options: CallToolOptions = callTimeouts(settings.config, entry, settings.toolTimeoutMs);
    if (onProgress) options.onProgress = (update) => onProgress({ server: entry.server, tool: entry.name, ...update });
    return options;
  };
}
