/**
 * Which configured servers a command starts: the ones `--server NAME` names, or for `tools call` the one whose
 * name the tool's name begins with. Starting eight servers to call one tool takes seconds; the rest are left alone.
 */

import { sanitiseName, TOOL_NAME_SEPARATOR } from '../catalog/tool-naming.js';
import type { HostConfig } from '../config/types.js';
import { closeNames } from '../text/close-names.js';
import { CliError, EXIT_USAGE } from './exit-codes.js';
import { noConfigFound } from './no-config-found.js';

/**
 * `config` with only the named servers; an unknown name is a usage error with the names that exist. A config awaiting
 * approval comes back as it is, with no server.
 */
export function onlyServers(config: HostConfig, names: readonly string[]): HostConfig {
  // A config awaiting approval is used as none: the command says so, as it does without --server, and its servers'
  // names are not looked up in it, which would call each one missing.
  if (config.awaitingApproval !== undefined) return config;
  const known = config.servers.map((server) => server.name);
  const [first] = names;
  if (config.file === undefined && known.length === 0 && first !== undefined) {
    throw new CliError(`no server "${first}": ${noConfigFound(process.cwd())}; pass --config FILE`, EXIT_USAGE);
  }
  for (const name of names) {
    if (known.includes(name)) continue;
    const close = closeNames(name, known, 3);
    const where = config.file === undefined ? 'the config' : config.file;
    throw new CliError(
      `no server "${name}" in ${where}${close.length ? ` (did you mean ${close.join(', ')}?)` : known.length ? ` (it has ${known.join(', ')})` : ''}`,
      EXIT_USAGE,
    );
  }
  return {
    ...config,
    servers: config.servers.filter((server) => names.includes(server.name)),
    serversNotStarted: [...(config.serversNotStarted ?? []), ...known.filter((name) => !names.includes(name))],
  };
}

/**
 * The enabled servers a namespaced tool name can belong to (`server__tool`, the server part sanitised as the
 * catalog does). Usually one; empty when no prefix matches.
 */
export function serversForToolName(config: HostConfig, toolName: string): string[] {
  return config.servers
    .filter((server) => !server.disabled)
    .filter((server) => toolName.startsWith(`${sanitiseName(server.name)}${TOOL_NAME_SEPARATOR}`))
    .map((server) => server.name);
}
