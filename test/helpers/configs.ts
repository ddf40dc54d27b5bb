/** Builds loaded host configs for tests without a config file. */
import type { HostConfig, RemoteServerConfig, StdioServerConfig } from '../../src/config/types.js';
import { repoRoot } from './project.js';

export function stdioServer(name: string, args: string[], extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args,
    env: {},
    cwd: repoRoot,
    trust: 'untrusted',
    timeoutMs: 10_000,
    disabled: false,
    versionNegotiation: 'legacy',
    ...extra,
  };
}

/**
 * A Streamable HTTP server entry at `url`, untrusted unless `extra` says otherwise (`{ transport: 'sse' }` for a
 * legacy HTTP+SSE one).
 */
export function httpServer(name: string, url: string, extra: Partial<RemoteServerConfig> = {}): RemoteServerConfig {
  return {
    name,
    transport: 'http',
    url,
    headers: {},
    trust: 'untrusted',
    timeoutMs: 10_000,
    disabled: false,
    versionNegotiation: 'legacy',
    oauth: false,
    ...extra,
  };
}

export function hostConfig(servers: HostConfig['servers'], extra: Partial<HostConfig> = {}): HostConfig {
  return { servers, permissions: { allow: [], ask: [], deny: [] }, secrets: [], warnings: [], ...extra };
}
