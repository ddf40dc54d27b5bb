/**
 * Who is calling the HTTP gateway: a configured bearer token (matched by hash), or, in OAuth resource-server mode, a
 * JWT access token from the configured issuer. Also serves the protected-resource metadata (RFC 9728) that tells
 * OAuth clients which authorization server to get a token from, at `/.well-known/oauth-protected-resource` and at
 * the path-suffixed form for each MCP path (`…/mcp`, `…/mcp/PROFILE`).
 */

import type { IncomingMessage } from 'node:http';
import type { GatewayOAuthSettings } from '../config/gateway-oauth-settings.js';
import type { GatewayToken } from '../config/gateway-settings.js';
import { authenticate as authenticateToken, type Rejection } from './http-guard.js';
import { createOAuthVerifier, oauthChallenge, oauthMissingTokenRejection } from './oauth-resource-server.js';

const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export interface GatewayIdentity {
  /** Distinct per caller across both kinds: what sessions are bound to and rate limits count. */
  key: string;
  /** The token's name, or the access token's subject. */
  principal: string;
  /** The OAuth client the access token was issued to. */
  clientId?: string;
}

export interface GatewayAuth {
  authenticate(request: IncomingMessage, profile: string | undefined): Promise<GatewayIdentity | Rejection>;
  /** The metadata document for a well-known path, or undefined when the path is not one (or OAuth is off). */
  protectedResourceMetadata(pathname: string): Record<string, unknown> | undefined;
}

interface GatewayAuthOptions {
  tokens: readonly GatewayToken[];
  oauth: GatewayOAuthSettings | undefined;
  /** The URL the gateway's `/mcp` is reached at, when `oauth.resource` does not say. */
  listeningResource: string;
  /** The local MCP path (`/mcp`). */
  mcpPath: string;
  onDiagnostic: (message: string) => void;
}

/** The resource URL of a path: `/mcp` is the gateway's, `/mcp/NAME` the profile's. */
function resourceOf(base: string, profile: string | undefined): string {
  return profile === undefined ? base : `${base}/${profile}`;
}

/** RFC 9728 §3.1: the well-known segment goes between the origin and the resource's path. */
function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}${PROTECTED_RESOURCE_PATH}${path}`;
}

function presentedToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined || !/^Bearer\s+\S+$/i.test(header)) return undefined;
  return header.replace(/^Bearer\s+/i, '');
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function createGatewayAuth(options: GatewayAuthOptions): GatewayAuth {
  const { oauth } = options;
  if (oauth === undefined) {
    return {
      async authenticate(request) {
        const identity = authenticateToken(request, options.tokens);
        return 'status' in identity ? identity : { key: `token:${identity.principal}`, principal: identity.principal };
      },
      protectedResourceMetadata: () => undefined,
    };
  }
  const base = oauth.resource ?? options.listeningResource;
  const verifier = createOAuthVerifier(oauth, options.onDiagnostic);
  const basePath = new URL(base).pathname.replace(/\/+$/, '');

  const metadataOf = (resource: string): Record<string, unknown> => ({
    resource,
    authorization_servers: [oauth.issuer],
    bearer_methods_supported: ['header'],
    ...(oauth.requiredScopes.length > 0 ? { scopes_supported: oauth.requiredScopes } : {}),
    resource_name: 'mcp-host gateway',
  });

  return {
    async authenticate(request, profile) {
      const resource = resourceOf(base, profile);
      const context = { resourceMetadata: metadataUrlOf(resource) };
      const token = presentedToken(request);
      if (token === undefined) return oauthMissingTokenRejection(oauth, context);
      if (options.tokens.length > 0) {
        const identity = authenticateToken(request, options.tokens);
        if (!('status' in identity)) return { key: `token:${identity.principal}`, principal: identity.principal };
      }
      if (!JWT_SHAPE.test(token)) {
        const description = "the bearer token is neither one of this gateway's tokens nor a JWT access token";
        return {
          status: 401,
          message: description,
          headers: oauthChallenge(oauth, context, { code: 'invalid_token', description }),
        };
      }
      // A token for the whole gateway also opens its profiles: a profile only narrows what is offered.
      const identity = await verifier.verify(token, profile === undefined ? [base] : [resource, base], context);
      if ('status' in identity) return identity;
      return {
        key: `oauth:${identity.subject}`,
        principal: identity.subject,
        ...(identity.clientId === undefined ? {} : { clientId: identity.clientId }),
      };
    },
    protectedResourceMetadata(pathname) {
      if (!pathname.startsWith(PROTECTED_RESOURCE_PATH)) return undefined;
      const rest = pathname.slice(PROTECTED_RESOURCE_PATH.length).replace(/\/+$/, '');
      if (rest === '' || rest === basePath || rest === options.mcpPath) return metadataOf(base);
      for (const prefix of new Set([basePath, options.mcpPath])) {
        const match = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/([A-Za-z0-9_-]{1,64})$`).exec(rest);
        if (match) return metadataOf(resourceOf(base, match[1]));
      }
      return undefined;
    },
  };
}
