/**
 * The HTTP server under the UI and under its sandbox origin, with bounds on the connections it holds before a
 * request's headers have come (see inbound-connection-bounds.ts). Both listen on loopback only, for one person's
 * browser, which opens a few connections per origin: 64 not yet past their headers is far above that.
 */
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import {
  BOUNDED_SERVER_OPTIONS,
  boundInboundConnections,
  type InboundConnectionBounds,
} from '../connections/inbound-connection-bounds.js';

const UI_CONNECTION_BOUNDS: InboundConnectionBounds = {
  maxUnadmitted: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

export function createUiServer(fetch: Parameters<typeof createAdaptorServer>[0]['fetch']): Server {
  const server = createAdaptorServer({ fetch, serverOptions: BOUNDED_SERVER_OPTIONS }) as Server;
  boundInboundConnections(server, UI_CONNECTION_BOUNDS, true);
  return server;
}
