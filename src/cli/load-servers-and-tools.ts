/** For `mcp-host trust`: the configured servers and, when asked, their tools as listed right now. */
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { loadConfig } from '../config/load-config.js';
import { connectServers } from '../host/connect-servers.js';
import type { LoadedServersAndTools, LoadServersAndToolsOptions } from './commands/trust.js';
import { noServersNote } from './no-servers-note.js';

export async function loadServersAndTools(options: LoadServersAndToolsOptions): Promise<LoadedServersAndTools> {
  const config = await loadConfig({ configPath: options.configPath });
  // A config found here but not approved names no servers yet; say how to approve it rather than "no such server".
  if (config.awaitingApproval !== undefined) throw new Error(noServersNote(config));
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
  const connected = await connectServers(wanted, { secrets: config.secrets });
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
