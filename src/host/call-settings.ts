/** The timeout settings of one call: per-tool override > `--timeout` > the server's > the host's defaults. */
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { DEFAULT_TOOL_TIMEOUT_MS, type HostConfig } from '../config/types.js';
import type { CallToolOptions } from '../connections/server-connection.js';

/** Progress notifications extend a call's timeout, but never past this, unless configured. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 10 * 60_000;

export function callSettings(
  config: HostConfig,
  entry: CatalogEntry,
  timeoutOverride?: number,
): Pick<CallToolOptions, 'timeoutMs' | 'maxTotalTimeoutMs'> {
  const server = config.servers.find((candidate) => candidate.name === entry.server);
  const tool = server?.tools?.[entry.tool.name];
  const timeoutMs = tool?.timeoutMs ?? timeoutOverride ?? server?.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxTotalTimeoutMs = Math.max(
    timeoutMs,
    tool?.maxTotalTimeoutMs ?? server?.maxTotalTimeoutMs ?? config.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  );
  return { timeoutMs, maxTotalTimeoutMs };
}
