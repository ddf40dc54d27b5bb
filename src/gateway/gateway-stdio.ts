/**
 * `mcp-host serve --stdio`: one connection over standard input and output, for clients that start their servers as
 * commands (Claude Desktop, Cursor, VS Code). Stdout is the protocol channel: diagnostics go to stderr only. A line
 * that is not a message the gateway can take is answered with a JSON-RPC error and the connection goes on.
 * The SDK's `serveStdio` picks the revision from the client's first message: an `initialize` (2025 revisions) or a
 * 2026-07-28 request (`server/discover` first, as a rule). Either way one session server of the gateway serves the
 * whole connection, with the same duties as over HTTP. A 2026-07-28 client hears of changes on
 * `subscriptions/listen`, which the SDK serves from that server's own change notifications.
 */

import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createLogRateGate } from '../connections/log-rate-gate.js';
import { ClientLineError, ClientStdioTransport } from './client-stdio-transport.js';
import type { GatewayHosts } from './gateway-hosts.js';
import { createGatewaySession } from './gateway-session.js';
import { KeyedThrottle } from './keyed-throttle.js';
import { StdioListenTransport } from './stdio-listen-transport.js';

/**
 * A client that sends lines the gateway cannot take as fast as it can would otherwise flood stderr, a line for each:
 * the first few are said one by one, then one a second, and the rest are counted in one line.
 */
const CLIENT_LINE_REPORTS = { burst: 20, perSecond: 1 };

interface GatewayStdio {
  /** Resolves when the client closes the connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function startGatewayStdio(options: {
  hosts: GatewayHosts;
  profile: string | undefined;
  version: string;
  onDiagnostic?: (message: string) => void;
}): Promise<GatewayStdio> {
  const profile = await options.hosts.get(options.profile);
  /** The server the SDK made last: the connection's, once its revision is known. */
  let current: { server: Server; era: 'legacy' | 'modern' } | undefined;
  const listChanged = new KeyedThrottle(() => {
    void current?.server.sendToolListChanged().catch(() => undefined);
  });
  options.hosts.onToolsChanged((changed) => {
    if (changed === options.profile) listChanged.changed('', changed);
  });
  // Updates of the resources a listen named come on the profile's bus (as over HTTP); the SDK passes them on to
  // the listens that named them when this connection's server sends them.
  const stopForwardingUpdates = profile.events.subscribe((event) => {
    if (event.kind !== 'resource_updated' || current?.era !== 'modern') return;
    void current.server.sendResourceUpdated({ uri: event.uri }).catch(() => undefined);
  });

  const lineReports = createLogRateGate(
    (dropped) =>
      options.onDiagnostic?.(
        `gateway (stdio): ${dropped.toLocaleString('en-US')} more lines from the client refused or ignored, not shown`,
      ),
    Date.now,
    CLIENT_LINE_REPORTS,
  );
  const transport = new StdioListenTransport(
    new ClientStdioTransport(options.hosts.settings.maxRequestBytes),
    profile,
    () => current?.era !== 'legacy',
    // The gateway ends with its one client's connection, also when the client closes it: the profile's sessions are
    // closed first, as the gateway's closing does, so the session's end has the servers asked for no level as they stop.
    () => profile.sessions.close(),
  );
  const served = serveStdio(
    ({ era }) => {
      const server = createGatewaySession({
        profile,
        settings: options.hosts.settings,
        version: options.version,
        session: () => 'stdio',
        mayAlwaysAllow: true,
        era,
      });
      current = { server, era };
      return server;
    },
    {
      transport,
      onerror: (error) => {
        if (error instanceof ClientLineError && !lineReports.admit()) return;
        options.onDiagnostic?.(`gateway (stdio): ${error.message}`);
      },
    },
  );
  return {
    closed: transport.closed,
    async close() {
      listChanged.close();
      lineReports.close();
      stopForwardingUpdates();
      // Before the client's connection: its closing would otherwise have the servers' level looked at again.
      await options.hosts.closeSessions();
      await served.close();
    },
  };
}
