/**
 * The start-up check of the config's permission rules against the tools listed. A server that was not started,
 * disabled or failed to start or to list lists no tools: a rule naming one of its tools is not known to be wrong.
 */
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { sanitiseName } from '../catalog/tool-naming.js';
import type { HostConfig } from '../config/types.js';
import { checkRules } from '../policy/permission-rules.js';

export function ruleWarnings(
  config: HostConfig,
  entries: readonly CatalogEntry[],
  failedServers: readonly string[],
): string[] {
  const serversNotStarted = [
    ...(config.serversNotStarted ?? []),
    ...config.servers.filter((server) => server.disabled).map((server) => server.name),
    ...failedServers,
  ].map(sanitiseName);
  const tools = entries.map((entry) => ({
    toolName: entry.name,
    serverName: entry.server,
    originalToolName: entry.tool.name,
  }));
  return checkRules(config.permissions, tools, {
    serversNotStarted,
    servers: config.servers.map((server) => sanitiseName(server.name)),
  });
}
