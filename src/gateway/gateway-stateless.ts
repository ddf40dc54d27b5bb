/**
 * Stateless HTTP serving (`gateway.stateless`): no session lives in one process, so any replica behind a load
 * balancer answers any request. Initialize stores the session (owner, profile, the client's name and capabilities)
 * in the gateway store and hands out its id; every later POST is served by a fresh SDK server restored from that
 * record. A request the gateway sends the client during a call (an approval asked through elicitation) gets an id
 * of its own; the client's answer, posted to whichever replica, goes through the store to the replica whose call
 * waits for it. There is no standing GET stream: `list_changed` is not pushed, clients list again.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type JSONRPCMessage, type Server } from '@modelcontextprotocol/server';
import type { GatewaySettings } from '../config/gateway-settings.js';
import type { GatewayIdentity } from './gateway-auth.js';
import { type GatewayHosts, UnknownProfileError } from './gateway-hosts.js';
import { createGatewaySession } from './gateway-session.js';
import type { Rejection } from './http-guard.js';
import type { GatewayStore, StoredSession } from './store/gateway-store.js';

/** A session unused this long is forgotten. */
export const STATELESS_SESSION_TTL_MS = 60 * 60_000;
const MAX_CLIENT_NAME_CHARACTERS = 200;

export interface StatelessGateway {
  checkRate(client: string): Promise<Rejection | undefined>;
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    identity: GatewayIdentity,
    profile: string | undefined,
    sessionId: string | undefined,
  ): Promise<Rejection | undefined>;
}

export interface StatelessOptions {
  store: GatewayStore;
  hosts: GatewayHosts;
  settings: GatewaySettings;
  version: string;
}

type Message = Record<string, unknown>;

function isResponse(message: unknown): message is Message {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const fields = message as Message;
  return fields.method === undefined && 'id' in fields && ('result' in fields || 'error' in fields);
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in message && 'id' in message;
}

function bounded(text: unknown): string | undefined {
  return typeof text === 'string' ? text.slice(0, MAX_CLIENT_NAME_CHARACTERS) : undefined;
}

/** The session record of an initialize request, as its client introduced itself. */
function sessionOf(body: Message, identity: GatewayIdentity, profile: string | undefined): StoredSession {
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

export function createStatelessGateway(options: StatelessOptions): StatelessGateway {
  const { store, hosts, settings } = options;

  async function serve(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    sessionId: string,
    session: StoredSession,
    initializing: boolean,
  ): Promise<Rejection | undefined> {
    let profileHost: Awaited<ReturnType<GatewayHosts['get']>>;
    try {
      profileHost = await hosts.get(session.profile);
    } catch (error) {
      if (error instanceof UnknownProfileError) return { status: 404, message: error.message };
      throw error;
    }
    const server = createGatewaySession({
      profile: profileHost,
      settings,
      version: options.version,
      principal: session.principal,
      ...(session.clientId === undefined ? {} : { clientId: session.clientId }),
      session: () => sessionId,
    });
    if (!initializing) restoreClientIdentity(server, session);
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);

    // Requests to the client are answered through the store, wherever the answer is posted. The SDK sends them
    // unrelated to the call that asks (meant for the standing stream): here they go on the call's own response.
    const pending = new AbortController();
    const related = (Array.isArray(body) ? (body as unknown[]) : [body]).find(
      (message): message is Message =>
        typeof message === 'object' && message !== null && 'id' in message && 'method' in message,
    )?.id as string | number | undefined;
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      if (!isRequest(message)) return send(message, sendOptions);
      const ownId = `gateway-${randomUUID()}`;
      store.waitForAnswer(`${sessionId}:${ownId}`, pending.signal).then(
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
    response.once('close', () => {
      pending.abort(new Error('the request ended'));
      void server.close().catch(() => undefined);
    });
    await transport.handleRequest(request, response, body);
    return undefined;
  }

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
        const session = sessionOf(body as unknown as Message, identity, profile);
        await store.putSession(id, session, STATELESS_SESSION_TTL_MS);
        response.setHeader('mcp-session-id', id);
        return serve(request, response, body, id, session, true);
      }
      const session = await store.getSession(sessionId, STATELESS_SESSION_TTL_MS);
      // A session belongs to whoever opened it and the path it was opened on.
      if (session === undefined || session.owner !== identity.key || session.profile !== profile) {
        return { status: 404, message: `unknown session ${sessionId}: initialize a new session` };
      }
      if (request.method === 'DELETE') {
        await store.deleteSession(sessionId);
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
      const answers = messages.filter(isResponse);
      for (const answer of answers) {
        if (typeof answer.id !== 'string' || !answer.id.startsWith('gateway-')) continue;
        await store.postAnswer(`${sessionId}:${answer.id}`, JSON.stringify(answer));
      }
      const rest = messages.filter((message) => !isResponse(message));
      if (rest.length === 0) {
        response.writeHead(202).end();
        return undefined;
      }
      return serve(request, response, Array.isArray(body) ? rest : rest[0], sessionId, session, false);
    },
  };
}
