/**
 * For `mcp-host trust`: the configured servers and, when asked, their tools as listed right now. They are reached
 * the way a run reaches them (`connectServers`, with the same OAuth for remote servers and tokens in the same state
 * folder), but their tools are not reviewed: the trust command shows and approves them itself.
 */
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { loadConfig } from '../config/load-config.js';
import { ensureStateDir } from '../config/state-dir.js';
import { connectServers } from '../host/connect-servers.js';
import { remoteServerAuthorization } from '../host/remote-server-authorization.js';
import type { LoadedServersAndTools, LoadServersAndToolsOptions } from './commands/trust.js';
import { CliError, EXIT_USAGE } from './exit-codes.js';
import { noServersNote } from './no-servers-note.js';
import { writeError } from './output.js';

export async function loadServersAndTools(options: LoadServersAndToolsOptions): Promise<LoadedServersAndTools> {
  const config = await loadConfig({ configPath: options.configPath, stateDir: options.stateDir });
  // A config found here but not approved names no servers yet; say how to approve it rather than "no such server".
  // A config error (exit 2) the user settles with the command named, not a failure to report with a stack trace.
  if (config.awaitingApproval !== undefined)
    throw new CliError(noServersNote(config, { stateDir: options.chosenStateDir }) ?? '', EXIT_USAGE);
  // No config, or one naming no server: say why the listing shows only what the store remembers, as the others do.
  const note = config.servers.length === 0 ? noServersNote(config, { stateDir: options.chosenStateDir }) : undefined;
  if (note !== undefined) writeError(`mcp-host: ${note}`);
  // The trust store keeps approvals per config file: the command must look where a run of this config would.
  const configFile = {
    ...(config.file === undefined ? {} : { configFile: config.file }),
    ...(config.auditFile === undefined ? {} : { auditFile: config.auditFile }),
  };
  if (!options.listTools) {
    return { servers: config.servers.map((server) => ({ config: server })), secrets: config.secrets, ...configFile };
  }
  const wanted = config.servers.filter(
    (server) => !server.disabled && (options.serverNames === undefined || options.serverNames.includes(server.name)),
  );
  const authorization = await remoteServerAuthorization(
    { ...config, servers: wanted },
    ensureStateDir(options.stateDir),
    {},
    (message) => writeError(`mcp-host: ${message}`),
  );
  const connected = await connectServers(wanted, { secrets: config.secrets, authorization });
  try {
    const catalog = ToolCatalog.build(connected.tools, { serverOrder: config.servers.map((server) => server.name) });
    const failures = new Map(connected.failures.map((failure) => [failure.server, failure.message]));
    return {
      servers: config.servers.map((server) => {
        const error = failures.get(server.name);
        const listed = connected.tools.some((entry) => entry.server === server.name);
        return {
          config: server,
          ...(listed ? { tools: catalog.forServer(server.name) } : {}),
          ...(error === undefined ? {} : { error }),
        };
      }),
      secrets: config.secrets,
      ...configFile,
    };
  } finally {
    await Promise.all(connected.connections.map((connection) => connection.close()));
  }
}
