/**
 * `mcp-host serve --stdio`: one session over standard input and output, for clients that start their servers as
 * commands (Claude Desktop, Cursor, VS Code). Stdout is the protocol channel: diagnostics go to stderr only.
 */

import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { GatewayHosts } from './gateway-hosts.js';
import { createGatewaySession } from './gateway-session.js';
import { ListChangedDebouncer } from './list-changed.js';

export interface GatewayStdio {
  /** Resolves when the client closes the connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function startGatewayStdio(options: {
  hosts: GatewayHosts;
  profile: string | undefined;
  version: string;
}): Promise<GatewayStdio> {
  const profile = await options.hosts.get(options.profile);
  const server = createGatewaySession({
    profile,
    settings: options.hosts.settings,
    version: options.version,
    session: () => 'stdio',
  });
  const listChanged = new ListChangedDebouncer(() => {
    void server.sendToolListChanged().catch(() => undefined);
  });
  options.hosts.onToolsChanged((changed) => {
    if (changed === options.profile) listChanged.changed(changed);
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  return {
    closed,
    async close() {
      listChanged.close();
      await server.close();
    },
  };
}
