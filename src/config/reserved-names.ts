/**
 * The namespace of the host's own tools. Every tool the host itself offers the model (reading a stored result,
 * listing and reading a server's resources) is named `mcp-host__…`, and no server may be named so that its tools
 * could be too: a server's catalog names start with its own name, so refusing names that start with `mcp-host`
 * (in any case) keeps the two apart whatever tools a server lists.
 */

import { ConfigError } from './config-error.js';
import { formatKeyPath } from './key-path.js';
import type { HostConfig } from './types.js';

export const HOST_TOOL_NAMESPACE = 'mcp-host';

export function isReservedServerName(name: string): boolean {
  return name.toLowerCase().startsWith(HOST_TOOL_NAMESPACE);
}

/** The problem with a reserved server name, phrased to follow "expected". */
export const RESERVED_SERVER_NAME_EXPECTED = `a server name that does not start with "${HOST_TOOL_NAMESPACE}" (reserved for the host's own tools)`;

/**
 * Refuses a config whose servers take the host's namespace. Config files are checked as they are read (with the
 * key path); this also covers configs built in code.
 */
export function assertNoReservedServerNames(config: Pick<HostConfig, 'servers' | 'file'>): void {
  const taken = config.servers.find((server) => isReservedServerName(server.name));
  if (taken === undefined) return;
  throw new ConfigError({
    code: 'config-invalid',
    file: config.file,
    keyPath: formatKeyPath(['mcpServers', taken.name]),
    expected: RESERVED_SERVER_NAME_EXPECTED,
    found: JSON.stringify(taken.name),
    hint: 'Rename the server.',
  });
}
