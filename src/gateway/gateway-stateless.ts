/**
 * Stateless HTTP serving (`gateway.stateless`): no session lives in one process, so any replica behind a load
 * balancer answers any request. Initialize stores the session (owner, profile, the client's name and capabilities)
 * in the gateway store and hands out its id; every later POST is served by a fresh SDK server restored from that
 * record. A request the gateway sends the client during a call (an approval asked through elicitation) gets an id
 * of its own; the client's answer, posted to whichever replica, goes through the store to the replica whose call
 * waits for it. A request that reaches a stateful server (`"stateful": true`) is served by the replica that
 * initialized the session, whose connection to that server holds the session's state: another replica relays it
 * there through the store; when no replica answers for the owner any more, the receiving replica claims the session
 * (the server's state starts afresh on it) by a compare-and-set in the store, so of replicas claiming it at once one
 * wins and the others relay to it. A replica relayed a request for a session it no longer owns (taken over while it
 * was thought stopped, or sent by a replica that read the record before the takeover) declines it rather than serve
 * it beside the new owner; the sender reads the record again and relays to the owner it names. There is no standing
 * GET stream: `list_changed` is not pushed, clients list again; a server's log messages during a call go on the call's
 * own stream, at the level the client set, which its session's record keeps; the servers behind this replica are asked
 * for the most verbose level of the clients it knows, idle ones included (see profile-sessions.ts `setLevel`).
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  isInitializeRequest,
  type JSONRPCMessage,
  type LoggingLevel,
  type McpHttpHandler,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { GatewaySettings } from '../config/gateway-settings.js';
import { stripControlCodes } from '../text/strip-control-codes.js';
import { answerThenClose } from './answer-then-close.js';
import type { GatewayIdentity } from './gateway-auth.js';
import { type GatewayHosts, type ProfileHost, UnknownProfileError } from './gateway-hosts.js';
import { createGatewaySession } from './gateway-session.js';
import type { Rejection } from './http-guard.js';
import { isJsonRpcRequest, isJsonRpcResponse } from './json-rpc-shape.js';
import { loggingLevelOf } from './profile-sessions.js';
import {
  answerRelayed,
  ownerChannel,
  type RelayedRequest,
  type RelayOutcome,
  relayedHeaders,
  relayToOwner,
} from './replica-relay.js';
import { reachesStatefulServer } from './stateful-routing.js';
import { claimSession, type GatewayStore, type StoredSession } from './store/gateway-store.js';

/** A session unused this long is forgotten. */
const STATELESS_SESSION_TTL_MS = 60 * 60_000;
const MAX_CLIENT_NAME_CHARACTERS = 200;
/** How much of a session id or a stored value a diagnostic shows. */
const MAX_SHOWN_STORE_CHARACTERS = 100;
/** Bad stored levels already said, kept at most: the oldest is let go past it, and said again if read again. */
const MAX_BAD_LEVELS_TOLD = 1_000;
/**
 * How often one request finds the session's owner gone (stopped, or no longer owning the session) and looks again,
 * each time finding a replica that then went too, before it gives up.
 */
const MAX_OWNER_CHANGES = 3;
/** How often keeping a client's log level finds the session's record changed meanwhile before it gives up. */
const MAX_LEVEL_WRITES = 4;

interface StatelessGateway {
  checkRate(client: string): Promise<Rejection | undefined>;
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    identity: GatewayIdentity,
    profile: string | undefined,
    sessionId: string | undefined,
  ): Promise<Rejection | undefined>;
  /** Stops answering requests relayed to this replica. */
  close(): Promise<void>;
}

interface StatelessOptions {
  store: GatewayStore;
  hosts: GatewayHosts;
  settings: GatewaySettings;
  version: string;
  onDiagnostic: (message: string) => void;
  /** How often a relayed request's owner is probed (default RELAY_LIVENESS_INTERVAL_MS). */
  relayLivenessIntervalMs?: number;
  /** How long a session lasts unused (default STATELESS_SESSION_TTL_MS). */
  sessionTtlMs?: number;
}

type Message = Record<string, unknown>;

function bounded(text: unknown): string | undefined {
  return typeof text === 'string' ? text.slice(0, MAX_CLIENT_NAME_CHARACTERS) : undefined;
}

/** What the store holds, said on one bounded line of plain text. */
function shownStoreText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const clean = stripControlCodes(text);
  return JSON.stringify(
    clean.length > MAX_SHOWN_STORE_CHARACTERS ? `${clean.slice(0, MAX_SHOWN_STORE_CHARACTERS)}…` : clean,
  );
}

/** The session record of an initialize request, as its client introduced itself. */
function sessionOf(
  body: Message,
  identity: GatewayIdentity,
  profile: string | undefined,
  replica: string,
): StoredSession {
  const params = (body.params ?? {}) as { clientInfo?: { name?: unknown; version?: unknown }; capabilities?: unknown };
  const version = bounded(params.clientInfo?.version);
  const capabilities = params.capabilities;
  return {
    owner: identity.key,
    principal: identity.principal,
    ...(identity.clientId === undefined ? {} : { clientId: identity.clientId }),
    ...(profile === undefined ? {} : { profile }),
    clientInfo: { name: bounded(params.clientInfo?.name) ?? 'unknown', ...(version === undefined ? {} : { version }) },
    capabilities:
      typeof capabilities === 'object' && capabilities !== null ? (capabilities as Record<string, unknown>) : {},
    replica,
  };
}

/**
 * A fresh server answering a session's later request needs what the client said at initialize. The SDK restores
 * that only for its own stateless protocol revision, so the two fields are set as its initialize handler sets them.
 */
function restoreClientIdentity(server: Server, session: StoredSession): void {
  const fields = server as unknown as { _clientCapabilities?: unknown; _clientVersion?: unknown };
  fields._clientCapabilities = session.capabilities;
  fields._clientVersion = session.clientInfo;
}

export async function openStatelessGateway(options: StatelessOptions): Promise<StatelessGateway> {
  const { store, hosts, settings } = options;
  const sessionTtlMs = options.sessionTtlMs ?? STATELESS_SESSION_TTL_MS;
  /** This replica's name in session records: stateful servers' requests of the sessions it opened come back here. */
  const replica = randomUUID();
  /** The bad stored levels said, each once: every request of the session reads its record again. Oldest first. */
  const badLevelsTold = new Set<string>();

  /** A fresh SDK server restored from the session's record answers one HTTP request. */
  async function respond(
    request: Request,
    body: unknown,
    sessionId: string,
    session: StoredSession,
    profileHost: ProfileHost,
    initializing: boolean,
  ): Promise<Response> {
    const server = createGatewaySession({
      profile: profileHost,
      settings,
      version: options.version,
      principal: session.principal,
      ...(session.clientId === undefined ? {} : { clientId: session.clientId }),
      session: () => sessionId,
      resourceSubscriptions: false,
      requestLogging: {
        level: keptLogLevel(sessionId, session),
        remember: (level) => rememberLogLevel(sessionId, session, level),
        keptForMs: sessionTtlMs,
      },
    });
    // Closed however the request ends, failing included: from its connecting, it is among the profile's sessions.
    const pending = new AbortController();
    return answerThenClose(
      request.signal,
      async () => {
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        await server.connect(transport);
        if (!initializing) restoreClientIdentity(server, session);
        answerRequestsThroughStore(transport, body, sessionId, pending.signal);
        return transport.handleRequest(request, { parsedBody: body });
      },
      () => {
        pending.abort(new Error('the request ended'));
        void server.close().catch(() => undefined);
      },
    );
  }

  /**
   * Requests to the client are answered through the store, wherever the answer is posted. A call's own are sent
   * related to it; one sent unrelated to any request (put to the only client outside a call to that server) would go
   * to the standing stream, which a stateless session has not: it goes on this request's own response.
   */
  function answerRequestsThroughStore(
    transport: WebStandardStreamableHTTPServerTransport,
    body: unknown,
    sessionId: string,
    pending: AbortSignal,
  ): void {
    const related = (Array.isArray(body) ? (body as unknown[]) : [body]).find(
      (message): message is Message =>
        typeof message === 'object' && message !== null && 'id' in message && 'method' in message,
    )?.id as string | number | undefined;
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      if (!isJsonRpcRequest(message)) return send(message, sendOptions);
      const ownId = `gateway-${randomUUID()}`;
      store.waitForAnswer(`${sessionId}:${ownId}`, pending).then(
        (text) => {
          const answer = JSON.parse(text) as Message;
          transport.onmessage?.({ ...answer, id: message.id } as JSONRPCMessage);
        },
        () => undefined,
      );
      return send(
        { ...message, id: ownId },
        sendOptions?.relatedRequestId !== undefined || related === undefined
          ? sendOptions
          : { ...sendOptions, relatedRequestId: related },
      );
    };
  }

  /**
   * The log level the session's record keeps, where it names one of MCP's: the store is shared by the replicas and
   * may be written by others, and a level reaches the servers' `logging/setLevel`. Another is ignored, and said once.
   */
  function keptLogLevel(sessionId: string, session: StoredSession): LoggingLevel | undefined {
    const kept: unknown = session.logLevel;
    const level = loggingLevelOf(kept);
    if (kept === undefined || level !== undefined) return level;
    const told = `stateless session ${shownStoreText(sessionId)}: the log level its record keeps, ${shownStoreText(kept)}, is not one of MCP's; ignored`;
    if (badLevelsTold.has(told)) return undefined;
    badLevelsTold.add(told);
    if (badLevelsTold.size > MAX_BAD_LEVELS_TOLD) badLevelsTold.delete(badLevelsTold.values().next().value!);
    options.onDiagnostic(told);
    return undefined;
  }

  /**
   * Keeps the client's log level in its session's record, for its later requests wherever they land. Written by
   * compare-and-set, so that a takeover of the session written meanwhile is not undone; read again when one was.
   */
  async function rememberLogLevel(sessionId: string, read: StoredSession, level: LoggingLevel): Promise<void> {
    let session: StoredSession | undefined = read;
    for (let tries = 0; session !== undefined && session.logLevel !== level && tries < MAX_LEVEL_WRITES; tries++) {
      const replaced = await store.replaceSession(sessionId, session, { ...session, logLevel: level }, sessionTtlMs);
      session = replaced?.won === true ? undefined : replaced?.session;
    }
  }

  async function profileOf(session: StoredSession): Promise<ProfileHost | Rejection> {
    try {
      return await hosts.get(session.profile);
    } catch (error) {
      if (error instanceof UnknownProfileError) return { status: 404, message: error.message };
      throw error;
    }
  }

  /** Serves on this replica, writing to the client's own response. */
  async function serveHere(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    sessionId: string,
    session: StoredSession,
    profileHost: ProfileHost,
    initializing: boolean,
  ): Promise<undefined> {
    const handler = {
      fetch: (webRequest: Request) => respond(webRequest, body, sessionId, session, profileHost, initializing),
    } as McpHttpHandler;
    await toNodeHandler(handler)(request, response, body);
    return undefined;
  }

  /** The session's record after this replica claimed it from an owner that stopped, won or lost to another claim. */
  async function claimed(sessionId: string, read: StoredSession): Promise<StoredSession | undefined> {
    const claim = await claimSession(store, sessionId, read, replica, sessionTtlMs);
    if (claim?.won)
      options.onDiagnostic(`gateway: session ${sessionId} taken over by this replica (its owner stopped)`);
    return claim?.session;
  }

  /**
   * Serves a request for a stateful server at the replica owning the session: relayed there, or, when nobody answers
   * for the owner, here after claiming the session. The claim is a compare-and-set, so of replicas taking one
   * session over at once only one wins; the others relay to it.
   */
  async function serveAtOwner(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    sessionId: string,
    read: StoredSession,
    profileHost: ProfileHost,
  ): Promise<Rejection | undefined> {
    let session = read;
    for (let changes = 0; session.replica !== replica; changes++) {
      const owner = session.replica;
      const outcome: RelayOutcome =
        owner === undefined
          ? 'unheard'
          : await relayToOwner(
              store,
              owner,
              { sessionId, profile: session.profile, headers: relayedHeaders(request.headers), body },
              response,
              options.relayLivenessIntervalMs,
            );
      if (outcome === 'answered') return undefined;
      if (changes === MAX_OWNER_CHANGES) {
        const last = outcome === 'declined' ? 'no longer owns it' : 'stopped answering';
        return {
          status: 502,
          message: `no gateway replica answered for session ${sessionId} in ${changes + 1} tries (the last, ${owner}, ${last})`,
        };
      }
      // A replica that declined is alive and saw another take the session over: the record names the new owner.
      // Claiming instead could take the session from that live owner, should the record read back as it was.
      const next =
        outcome === 'declined' ? await store.getSession(sessionId, sessionTtlMs) : await claimed(sessionId, session);
      if (next === undefined) return { status: 404, message: `unknown session ${sessionId}: initialize a new session` };
      session = next;
    }
    return serveHere(request, response, body, sessionId, session, profileHost, false);
  }

  const stopListening = await store.listen(ownerChannel(replica), (text) => {
    const relayed = JSON.parse(text) as RelayedRequest;
    // Looked up within answerRelayed, which listens for the sender's probes first: the lookups show this replica alive.
    void answerRelayed(store, relayed, async (request) => {
      const session = await store.getSession(relayed.sessionId, sessionTtlMs);
      // Answering here for a session another replica took over would run its calls on two copies of a stateful
      // server, splitting its state: the sender is told to look the owner up again instead.
      if (session !== undefined && session.replica !== replica) return undefined;
      if (session === undefined || session.profile !== relayed.profile) {
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32600, message: `unknown session ${relayed.sessionId}` }, id: null },
          { status: 404 },
        );
      }
      const profileHost = await profileOf(session);
      if ('status' in profileHost) {
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32600, message: profileHost.message }, id: null },
          { status: 404 },
        );
      }
      return respond(request, relayed.body, relayed.sessionId, session, profileHost, false);
    }).catch((error: unknown) =>
      options.onDiagnostic(
        `gateway: a request relayed to this replica failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  });

  return {
    async checkRate(client) {
      const { count, resetInMs } = await store.countRequest(client, 60_000);
      if (count <= settings.requestsPerMinute) return undefined;
      return {
        status: 429,
        message: `more than ${settings.requestsPerMinute} requests a minute from this client (gateway.requestsPerMinute)`,
        headers: { 'retry-after': String(Math.max(1, Math.ceil(resetInMs / 1000))) },
      };
    },

    async handle(request, response, body, identity, profile, sessionId) {
      if (sessionId === undefined) {
        if (request.method !== 'POST' || !isInitializeRequest(body)) {
          return { status: 400, message: 'no Mcp-Session-Id header: start with an initialize request' };
        }
        const id = randomUUID();
        const session = sessionOf(body as unknown as Message, identity, profile, replica);
        const profileHost = await profileOf(session);
        if ('status' in profileHost) return profileHost;
        await store.putSession(id, session, sessionTtlMs);
        response.setHeader('mcp-session-id', id);
        return serveHere(request, response, body, id, session, profileHost, true);
      }
      const session = await store.getSession(sessionId, sessionTtlMs);
      // A session belongs to whoever opened it and the path it was opened on.
      if (session === undefined || session.owner !== identity.key || session.profile !== profile) {
        return { status: 404, message: `unknown session ${sessionId}: initialize a new session` };
      }
      if (request.method === 'DELETE') {
        await store.deleteSession(sessionId);
        // Its level no longer holds this replica's servers (others let it go when it lapses unused).
        (await hosts.started(session.profile)?.catch(() => undefined))?.sessions.forgetStoredLevel(sessionId);
        response.writeHead(200).end();
        return undefined;
      }
      if (request.method !== 'POST') {
        response.setHeader('allow', 'POST, DELETE');
        return {
          status: 405,
          message: 'this gateway is stateless: it keeps no event stream open (list again to see changes)',
        };
      }
      const messages = Array.isArray(body) ? (body as unknown[]) : [body];
      const answers = messages.filter(isJsonRpcResponse);
      for (const answer of answers) {
        if (typeof answer.id !== 'string' || !answer.id.startsWith('gateway-')) continue;
        await store.postAnswer(`${sessionId}:${answer.id}`, JSON.stringify(answer));
      }
      const rest = messages.filter((message) => !isJsonRpcResponse(message));
      if (rest.length === 0) {
        response.writeHead(202).end();
        return undefined;
      }
      const restBody = Array.isArray(body) ? rest : rest[0];
      const profileHost = await profileOf(session);
      if ('status' in profileHost) return profileHost;
      if (session.replica === replica || !(await reachesStatefulServer(rest, profileHost))) {
        return serveHere(request, response, restBody, sessionId, session, profileHost, false);
      }
      return serveAtOwner(request, response, restBody, sessionId, session, profileHost);
    },

    async close() {
      await stopListening();
    },
  };
}
