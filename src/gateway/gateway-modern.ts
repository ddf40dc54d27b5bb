/**
 * Requests of the 2026-07-28 protocol revision. Each carries what initialize used to (protocol version, client info
 * and capabilities) in its own `_meta` and belongs to no session, so whichever replica gets one answers it, with a
 * fresh SDK server for that request running the same handlers as a session (rules, pinning, checks, budgets, audit
 * with the client's identity, progress and logging on the request's own stream). An approval is returned as an
 * `input_required` result; the client's retry, at any replica, carries the answer. Servers' sampling and elicitation
 * requests cannot reach such a client (the revision has no request from server to client) and are refused.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { GatewaySettings } from '../config/gateway-settings.js';
import type { GatewayIdentity } from './gateway-auth.js';
import type { ProfileHost } from './gateway-hosts.js';
import { createGatewaySession } from './gateway-session.js';

export interface ModernGateway {
  /** Whether a POST without a session is a 2026-07-28 request (it carries the revision's `_meta` claim). */
  isModern(request: IncomingMessage, body: unknown): Promise<boolean>;
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    identity: GatewayIdentity,
    profile: ProfileHost,
  ): Promise<void>;
  close(): Promise<void>;
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
}): ModernGateway {
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
        // The server lasts one request: nothing would be left to send resource updates to.
        resourceSubscriptions: false,
        era: context.era,
      });
    },
    {
      // 2025 requests keep their sessions; only this revision's requests come here.
      legacy: 'reject',
      maxRequestBodySize: options.settings.maxRequestBytes,
      onerror: (error) => options.onDiagnostic(`gateway (2026-07-28 request): ${error.message}`),
    },
  );
  const nodeHandler = toNodeHandler(handler);

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
      await nodeHandler(request, response, body);
    },
    close: () => handler.close(),
  };
}
