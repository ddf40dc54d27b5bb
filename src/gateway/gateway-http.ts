/**
 * `mcp-host serve --http PORT`: Streamable HTTP on `/mcp` (the whole config) and `/mcp/PROFILE`, with stateful
 * sessions bound to the token that opened them, plus `/health` (the process answers) and `/ready` (the default
 * profile's servers are up). Plain `node:http`: no web framework for four routes.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type Server } from '@modelcontextprotocol/server';
import type { GatewayToken } from '../config/gateway-settings.js';
import {
  BOUNDED_SERVER_OPTIONS,
  boundInboundConnections,
  type InboundConnectionBounds,
} from '../connections/inbound-connection-bounds.js';
import { BoundedEventStore } from './bounded-event-store.js';
import { notAMessageReply, readClientMessage } from './client-line.js';
import { cutOffWhenFarBehind, MAX_WAITING_RESPONSE_BYTES } from './cut-off-far-behind.js';
import { dropNotificationsWhenFarBehind } from './drop-notifications-far-behind.js';
import { createGatewayAuth, type GatewayAuth } from './gateway-auth.js';
import { type GatewayHosts, UnknownProfileError } from './gateway-hosts.js';
import { createModernGateway } from './gateway-modern.js';
import { createGatewaySession } from './gateway-session.js';
import { openStatelessGateway } from './gateway-stateless.js';
import { checkHost, checkOrigin, RateLimiter, type Rejection } from './http-guard.js';
import { isJsonRpcRequest } from './json-rpc-shape.js';
import { escapeCallArguments } from './keep-prototype-keys-of-arguments.js';
import { KeyedThrottle } from './keyed-throttle.js';
import { type SessionSlot, SessionTable } from './session-table.js';
import { StandingStreams } from './standing-streams.js';
import type { GatewayStore } from './store/gateway-store.js';
import { openGatewayStore } from './store/open-store.js';

const MCP_PATH = '/mcp';

interface GatewayHttpOptions {
  hosts: GatewayHosts;
  /** Everyone who may connect with a static token; empty only when `gateway.oauth` is configured. */
  tokens: readonly GatewayToken[];
  port: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  version: string;
  onDiagnostic: (message: string) => void;
  /**
   * `serve --profile NAME`: the only profile served, at `/mcp` and at `/mcp/NAME`. Without it the whole config is
   * served at `/mcp` and each profile at `/mcp/NAME`.
   */
  profile?: string;
  /** With `gateway.stateless`: this store instead of the one `gateway.store` names (the caller closes it). */
  store?: GatewayStore;
  /**
   * With `gateway.stateless`: how often a request relayed to the replica owning its session checks that the owner is
   * still there. Default 2 s (RELAY_LIVENESS_INTERVAL_MS); not configurable from the CLI.
   */
  relayLivenessIntervalMs?: number;
  /** With `gateway.stateless`: how long a session lasts unused. Default an hour; not configurable from the CLI. */
  statelessSessionTtlMs?: number;
  /** How long a 2026-07-28 client's log level counts after its last request asking for it. Not configurable from the CLI. */
  modernLevelKeptMs?: number;
  /** Default CONNECTION_BOUNDS; not configurable from the CLI. */
  connectionBounds?: InboundConnectionBounds;
}

export interface GatewayHttp {
  url: string;
  close(): Promise<void>;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  /** The caller's identity key (`GatewayIdentity.key`). */
  principal: string;
  profile: string | undefined;
  slot: SessionSlot;
  standingStreams: StandingStreams;
}

const INVALID_REQUEST = -32600;
/**
 * At most 256 connections not yet authenticated at once; headers within 10 s (they come in one packet), a whole
 * request within 60 s (a body of the default 4 MB, `maxRequestBytes`, at 70 KB/s). An idle kept-alive connection of
 * a client stays open 65 s: Node's default (5 s) closes sockets that clients and load balancers still hold in their
 * pools, and a client under load sends its next request on one just as the gateway drops it and gets ECONNRESET (a
 * POST is never retried); 65 s is longer than common load-balancer idle timeouts (60 s).
 */
const CONNECTION_BOUNDS: InboundConnectionBounds = {
  maxUnadmitted: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 65_000,
};
const PARSE_ERROR = -32700;

function reject(response: ServerResponse, rejection: Rejection): void {
  response.writeHead(rejection.status, { 'content-type': 'application/json', ...rejection.headers });
  response.end(
    JSON.stringify({ jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: rejection.message }, id: null }),
  );
}

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `/mcp` → the whole config; `/mcp/NAME` → profile NAME; anything else → not ours. */
function profileOfPath(pathname: string): { profile: string | undefined } | undefined {
  if (pathname === MCP_PATH || pathname === `${MCP_PATH}/`) return { profile: undefined };
  const match = /^\/mcp\/([A-Za-z0-9_-]{1,64})\/?$/.exec(pathname);
  return match ? { profile: match[1] } : undefined;
}

/**
 * The profile a path reaches when the gateway serves only `only`: `/mcp` and `/mcp/ONLY` reach it, another profile's
 * path is refused (its servers and rules are not this gateway's to offer).
 */
function servedProfile(
  route: { profile: string | undefined },
  only: string | undefined,
): { profile: string | undefined } | Rejection {
  if (only === undefined || route.profile === undefined || route.profile === only)
    return { profile: only ?? route.profile };
  return {
    status: 404,
    message: `this gateway serves only profile "${only}" (serve --profile), at ${MCP_PATH} and ${MCP_PATH}/${only}`,
  };
}

/**
 * What a client that stops reading its event stream may make the gateway keep. A stream whose events can be had
 * again is cut off: a session's GET stream (resumed from its event store), a `subscriptions/listen` stream (listened
 * to again, and the lists read afresh). A POST carrying requests is answered on its stream, which no store may still
 * hold when the client comes back (a stateless gateway has none): its notifications are dropped, never the answer
 * to a single request; a batch's answers past the bound are errors naming it.
 */
function boundWhatWaitsForClient(
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  sessionId: string | undefined,
  onDiagnostic: (message: string) => void,
): void {
  const stream = `${request.method} stream${sessionId === undefined ? '' : ` of session ${sessionId}`}`;
  const behind = `fell more than ${MAX_WAITING_RESPONSE_BYTES / 1024 / 1024} MB behind reading it`;
  if (request.method === 'POST' && !isListenRequest(body)) {
    dropNotificationsWhenFarBehind(response, {
      notificationDropped: () =>
        onDiagnostic(
          `gateway: dropping notifications (progress, log messages) on a ${stream} whose client ${behind}; its answer is still sent`,
        ),
      // One request has one answer, always sent; a batch's many answers could together be any size.
      ...(requestsIn(body) > 1
        ? {
            answerRefused: () =>
              onDiagnostic(
                `gateway: answering the rest of a batch with errors on a ${stream} with more than ${MAX_WAITING_RESPONSE_BYTES / 1024 / 1024} MB waiting for its client to read; its requests were handled`,
              ),
          }
        : {}),
    });
  } else {
    cutOffWhenFarBehind(response, () => onDiagnostic(`gateway: cut off a ${stream} whose client ${behind}`));
  }
}

/** How many requests (messages with an id and a method) a POST's body holds. */
function requestsIn(body: unknown): number {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  return messages.filter(isJsonRpcRequest).length;
}

function isListenRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

export async function startGatewayHttp(options: GatewayHttpOptions): Promise<GatewayHttp> {
  const { hosts } = options;
  const settings = hosts.settings;
  const sessions = new Map<string, Session>();
  const sessionTable = new SessionTable(settings);
  const limiter = new RateLimiter(settings.requestsPerMinute);
  // Stateless: sessions, pending answers and rate counts in the store, shared by every replica using it.
  const ownStore =
    settings.stateless && options.store === undefined
      ? await openGatewayStore(settings.store, options.onDiagnostic)
      : undefined;
  const store = settings.stateless ? (options.store ?? ownStore) : undefined;
  const stateless =
    store === undefined
      ? undefined
      : await openStatelessGateway({
          store,
          hosts,
          settings,
          version: options.version,
          onDiagnostic: options.onDiagnostic,
          ...(options.relayLivenessIntervalMs === undefined
            ? {}
            : { relayLivenessIntervalMs: options.relayLivenessIntervalMs }),
          ...(options.statelessSessionTtlMs === undefined ? {} : { sessionTtlMs: options.statelessSessionTtlMs }),
        });
  const modern = createModernGateway({
    settings,
    version: options.version,
    onDiagnostic: options.onDiagnostic,
    ...(options.modernLevelKeptMs === undefined ? {} : { levelKeptMs: options.modernLevelKeptMs }),
  });
  const listChanged = new KeyedThrottle((profile: string | undefined) => {
    for (const session of sessions.values()) {
      if (session.profile === profile) void session.server.sendToolListChanged().catch(() => undefined);
    }
    // And the profile's listen streams (2026-07-28 revision); the profile has started, or nothing changed.
    void hosts.get(profile).then(
      (host) => host.events.publish({ kind: 'tools_list_changed' }),
      () => undefined,
    );
  });
  hosts.onToolsChanged((profile) => listChanged.changed(profile ?? '', profile));

  const json = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  let auth: GatewayAuth | undefined;
  /** Made on first use: the resource URL defaults to the address the server got. */
  const authOf = (): GatewayAuth => {
    auth ??= createGatewayAuth({
      tokens: options.tokens,
      oauth: settings.oauth,
      listeningResource: listeningUrl(),
      mcpPath: MCP_PATH,
      onDiagnostic: options.onDiagnostic,
    });
    return auth;
  };

  /** The host serving a profile, or the 404 that names a profile the config does not have. */
  async function profileHostOrRejection(
    profile: string | undefined,
  ): Promise<{ host: Awaited<ReturnType<GatewayHosts['get']>> } | { rejection: Rejection }> {
    try {
      return { host: await hosts.get(profile) };
    } catch (error) {
      if (error instanceof UnknownProfileError) return { rejection: { status: 404, message: error.message } };
      throw error;
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const guard = checkHost(request, settings) ?? checkOrigin(request, settings);
    if (guard) return reject(response, guard);
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (pathname === '/health') return json(response, 200, { status: 'ok' });
    if (pathname === '/ready') {
      const ready = await hosts.get(options.profile).then(
        () => true,
        () => false,
      );
      return json(response, ready ? 200 : 503, { status: ready ? 'ready' : 'starting' });
    }
    const metadata = request.method === 'GET' ? authOf().protectedResourceMetadata(pathname) : undefined;
    if (metadata !== undefined) return json(response, 200, metadata);
    const path = profileOfPath(pathname);
    if (path === undefined) {
      return reject(response, {
        status: 404,
        message: `not found: the MCP endpoint is ${MCP_PATH} or ${MCP_PATH}/PROFILE`,
      });
    }
    const route = servedProfile(path, options.profile);
    if ('status' in route) return reject(response, route);
    const identity = await authOf().authenticate(request, route.profile);
    if ('status' in identity) return reject(response, identity);
    connections.admit(request.socket);
    const limited = stateless ? await stateless.checkRate(identity.key) : limiter.check(identity.key);
    if (limited) return reject(response, limited);

    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let body: unknown;
    if (request.method === 'POST') {
      let text: string;
      try {
        text = await readBody(request, settings.maxRequestBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          return reject(response, {
            status: 413,
            message: `the request body exceeds ${settings.maxRequestBytes} bytes (gateway.maxRequestBytes)`,
          });
        }
        throw error;
      }
      try {
        body = escapeCallArguments(JSON.parse(text));
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'the body is not JSON' }, id: null }),
        );
        return;
      }
      // The SDK answers any message it cannot take with "Parse error: Invalid JSON-RPC message": say what is wrong.
      const read = Array.isArray(body) ? undefined : readClientMessage(body);
      if (read !== undefined && read.kind !== 'message') {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify(notAMessageReply(read)));
        return;
      }
    }

    boundWhatWaitsForClient(request, response, body, sessionId, options.onDiagnostic);

    // A 2026-07-28 request has no session: any replica answers it, in either mode.
    if (request.method === 'POST' && sessionId === undefined && !isInitializeRequest(body)) {
      if (await modern.isModern(request, body)) {
        const found = await profileHostOrRejection(route.profile);
        if ('rejection' in found) return reject(response, found.rejection);
        const refused = await modern.handle(request, response, body, identity, found.host);
        if (refused) reject(response, refused);
        return;
      }
    }
    if (stateless !== undefined) {
      const rejection = await stateless.handle(request, response, body, identity, route.profile, sessionId);
      if (rejection) reject(response, rejection);
      return;
    }
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // A session belongs to the token that opened it and the path it was opened on.
      if (session === undefined || session.principal !== identity.key || session.profile !== route.profile) {
        return reject(response, { status: 404, message: `unknown session ${sessionId}: initialize a new session` });
      }
      session.slot.track(response);
      if (request.method === 'GET') session.standingStreams.track(request, response);
      await session.transport.handleRequest(request, response, body);
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return reject(response, { status: 400, message: 'no Mcp-Session-Id header: start with an initialize request' });
    }
    const found = await profileHostOrRejection(route.profile);
    if ('rejection' in found) return reject(response, found.rejection);
    const profileHost = found.host;
    let transport: NodeStreamableHTTPServerTransport | undefined;
    const eventStore = new BoundedEventStore();
    const standingStreams = new StandingStreams();
    // Idle: closing the transport ends the session as a DELETE does (subscriptions released, event store dropped).
    const slot = sessionTable.reserve(identity.key, () => void transport?.close());
    if ('status' in slot) return reject(response, slot);
    const server = createGatewaySession({
      profile: profileHost,
      settings,
      version: options.version,
      principal: identity.principal,
      ...(identity.clientId === undefined ? {} : { clientId: identity.clientId }),
      session: () => transport?.sessionId,
      hadStandingStream: () => standingStreams.everAnswered(),
    });
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A client whose event stream dropped resumes it (`Last-Event-ID`) without losing what was sent meanwhile.
      eventStore,
      onsessioninitialized: (id) => {
        sessions.set(id, {
          transport: transport!,
          server,
          principal: identity.key,
          profile: route.profile,
          slot,
          standingStreams,
        });
      },
    });
    transport.onclose = () => {
      slot.release();
      // Its events no longer count against what all sessions may keep together.
      eventStore.release();
      if (transport?.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    slot.track(response);
    // An initialize that did not open a session gives its place back.
    response.once('close', () => {
      if (transport?.sessionId === undefined || !sessions.has(transport.sessionId)) {
        slot.release();
        void transport?.close();
      }
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const hostname = options.hostname ?? '127.0.0.1';
  function listeningUrl(): string {
    const { port } = httpServer.address() as AddressInfo;
    const shownHost = hostname.includes(':') ? `[${hostname}]` : hostname;
    return `http://${shownHost}:${port}${MCP_PATH}`;
  }

  const httpServer: HttpServer = createServer(BOUNDED_SERVER_OPTIONS, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.onDiagnostic(`gateway request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reject(response, { status: 500, message: 'internal error' });
      else response.end();
    });
  });
  const connections = boundInboundConnections(httpServer, options.connectionBounds ?? CONNECTION_BOUNDS);
  await new Promise<void>((resolve, rejectListen) => {
    httpServer.once('error', rejectListen);
    httpServer.listen(options.port, hostname, () => {
      httpServer.off('error', rejectListen);
      resolve();
    });
  });
  return {
    url: listeningUrl(),
    async close() {
      listChanged.close();
      // Before the clients' connections: each one closing would otherwise have the servers' level looked at again.
      await options.hosts.closeSessions();
      await modern.close();
      await Promise.allSettled([...sessions.values()].map((session) => session.transport.close()));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await stateless?.close();
      await ownStore?.close();
    },
  };
}
