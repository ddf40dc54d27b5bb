import type { HostConfig, ServerConfig } from './types.js';

/** The configured server of that name, if any (the host's own tools have none). */
export function serverConfigOf(config: HostConfig, server: string): ServerConfig | undefined {
  return config.servers.find((candidate) => candidate.name === server);
}
