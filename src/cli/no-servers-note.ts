/** What to tell a user whose config names no MCP server: no file was found, or the file has none. */
import type { ApprovalsPlace } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import { noConfigFound } from './no-config-found.js';
import { unapprovedConfigNote } from './unapproved-config-note.js';

/** Undefined when at least one server is configured. `approvals.stateDir`: a state folder chosen for the run. */
export function noServersNote(
  config: HostConfig,
  approvals: Pick<ApprovalsPlace, 'stateDir'> = {},
  cwd: string = process.cwd(),
): string | undefined {
  const unapproved = unapprovedConfigNote(config, approvals, 'its servers were not started');
  if (unapproved !== undefined) return unapproved;
  if (config.servers.length > 0) return undefined;
  if (config.file === undefined) {
    return `${noConfigFound(cwd)}, so no MCP servers are connected. Pass --config FILE, or add a server to a new mcp-host.json here with: mcp-host add NAME -- COMMAND [ARGS…]`;
  }
  return `${config.file} configures no MCP servers (add them under "mcpServers"), so none are connected.`;
}
