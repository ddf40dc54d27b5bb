/**
 * Requests of the 2026-07-28 protocol revision. Each carries in its own `_meta` what a session has from initialize
 * (protocol version, client info and capabilities) and belongs to no session, so whichever replica gets one answers
 * it, with a fresh SDK server for that request running the same handlers as a session (rules, pinning, checks,
 * budgets, audit with the client's identity, progress and logging on the request's own stream, log messages only at
 * the level the request asks for in its `_meta`, none when it asks for none; that level counts for the one the
 * servers are asked for, as a stateless client's does: see gateway-session.ts). An approval is returned as an
 * `input_required` result; the client's retry, at any replica, carries the answer. Servers' sampling and elicitation
 * requests cannot reach such a client (the revision has no request from server to client) and are refused.
 * A client hears of changes on a `subscriptions/listen` stream, which the SDK serves from the profile's event bus
 * (one handler per profile, so a stream hears only its own profile); the resources it names are subscribed upstream
 * while it is open.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { GatewaySettings } from '../config/gateway-settings.js';
import type { GatewayIdentity } from './gateway-auth.js';
import type { ProfileHost } from './gateway-hosts.js';
import { createGatewaySession } from './gateway-session.js';
import type { Rejection } from './http-guard.js';
import { openListenSubscriptions } from './listen-subscriptions.js';
import { SessionTable } from './session-table.js';

interface ModernGateway {
  /** Whether a POST without a session is a 2026-07-28 request (it carries the revision's `_meta` claim). */
  isModern(request: IncomingMessage, body: unknown): Promise<boolean>;
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    identity: GatewayIdentity,
    profile: ProfileHost,
  ): Promise<Rejection | undefined>;
  close(): Promise<void>;
}

function isListenRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

/** Who sent the request and the profile it asked for, passed to the server factory through the SDK's `authInfo`. */
interface Caller {
  identity: GatewayIdentity;
  profile: ProfileHost;
}

export function createModernGateway(options: {
  settings: GatewaySettings;
  version: string;
  onDiagnostic: (message: string) => void;
  /** How long a client's log level counts for the servers' after its last request asking for it. */
  levelKeptMs?: number;
}): ModernGateway {
  const handlers = new Map<ProfileHost, { handler: McpHttpHandler; node: ReturnType<typeof toNodeHandler> }>();
  // A listen stream is open as long as its client keeps it, holding its subscriptions: bounded as sessions are.
  const listenStreams = new SessionTable(options.settings, { plural: 'listen streams', endOne: 'close one' });
  const handlerOf = (profile: ProfileHost) => {
    const known = handlers.get(profile);
    if (known !== undefined) return known;
    const handler = createMcpHandler(
      (context) => {
        const caller = context.authInfo?.extra?.caller as Caller | undefined;
        if (caller === undefined) throw new Error('a 2026-07-28 request reached the gateway without its caller');
        return createGatewaySession({
          profile: caller.profile,
          settings: options.settings,
          version: options.version,
          principal: caller.identity.principal,
          ...(caller.identity.clientId === undefined ? {} : { clientId: caller.identity.clientId }),
          session: () => undefined,
          era: context.era,
          ...(options.levelKeptMs === undefined ? {} : { modernLevelKeptMs: options.levelKeptMs }),
        });
      },
      {
        // 2025 requests keep their sessions; only this revision's requests come here.
        legacy: 'reject',
        maxRequestBodySize: options.settings.maxRequestBytes,
        // List changes and resource updates of this profile only.
        bus: profile.events,
        onerror: (error) => options.onDiagnostic(`gateway (2026-07-28 request): ${error.message}`),
      },
    );
    const made = { handler, node: toNodeHandler(handler) };
    handlers.set(profile, made);
    return made;
  };

  return {
    async isModern(request, body) {
      const probe = await toWebRequest(request, body);
      return !(await isLegacyRequest(probe, body));
    },
    async handle(request, response, body, identity, profile) {
      const caller: Caller = { identity, profile };
      const auth: AuthInfo = {
        token: '',
        clientId: identity.clientId ?? identity.principal,
        scopes: [],
        extra: { caller },
      };
      (request as IncomingMessage & { auth?: AuthInfo }).auth = auth;
      if (!isListenRequest(body)) return void (await handlerOf(profile).node(request, response, body));
      const place = listenStreams.reserve(identity.key, () => undefined);
      if ('status' in place) return place;
      // However the stream ends (the client closes it, the gateway shuts down, the request is refused).
      if (response.closed) return void place.release();
      response.once('close', () => place.release());
      const listen = await openListenSubscriptions(profile, body);
      if (listen === undefined) return void (await handlerOf(profile).node(request, response, body));
      if (response.closed) return void listen.release();
      response.once('close', listen.release);
      await handlerOf(profile).node(request, response, listen.body);
      return undefined;
    },
    async close() {
      // Each open listen stream gets its final response before the connections go.
      await Promise.all([...handlers.values()].map(({ handler }) => handler.close()));
    },
  };
}
