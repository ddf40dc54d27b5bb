/**
 * A catalog entry's call as the policy sees it: the call to decide, the trust it is decided under, and the other
 * servers' tool names its description is checked against.
 */
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { serverConfigOf } from '../config/server-config-of.js';
import type { HostConfig, ServerTrust } from '../config/types.js';
import type { ToolCallToAuthorize } from './authorize-tool-call.js';
import { crossReferenceNames } from './review-server-tools.js';

/**
 * The trust a call is decided under. A tool no configured server owns is the host's own (reading a stored result):
 * it is as trusted as the host. Every other tool has its server's trust, the host's resource tools included:
 * reading a resource hands the server's data to the model like any tool result, so it is a call like any other.
 */
export function trustOf(config: HostConfig, entry: CatalogEntry): ServerTrust {
  const server = serverConfigOf(config, entry.server);
  return server === undefined ? 'trusted' : server.trust;
}

export function callToAuthorize(entry: CatalogEntry, args: unknown, callId?: string): ToolCallToAuthorize {
  // Listed whole rather than spread in: on Node 20 an object that starts as a spread costs microseconds per key
  // added after it, twice a call here.
  const call: ToolCallToAuthorize = {
    toolName: entry.name,
    serverName: entry.server,
    originalToolName: entry.tool.name,
    arguments: args,
    tool: entry.tool,
  };
  if (callId !== undefined) call.callId = callId;
  return call;
}

/** Other servers' tool names per catalog (a catalog is immutable, so its array identity keys the cache). */
const crossReferenceCache = new WeakMap<readonly CatalogEntry[], Map<string, string[]>>();

export function otherServerToolNames(entries: readonly CatalogEntry[], server: string): string[] {
  let byServer = crossReferenceCache.get(entries);
  if (!byServer) {
    byServer = new Map();
    crossReferenceCache.set(entries, byServer);
  }
  let names = byServer.get(server);
  if (!names) {
    names = crossReferenceNames(entries, server);
    byServer.set(server, names);
  }
  return names;
}
