/**
 * The gateway as an OAuth 2.1 resource server: a bearer token that is a JWT is verified with `jose` against the
 * issuer's JWKS (fetched and cached; found through the issuer's metadata when `jwksUri` is not configured), for
 * issuer, audience (the gateway's resource URL), `exp`/`nbf` and the required scopes. Rejections carry the RFC 6750
 * challenge with `resource_metadata` (RFC 9728) so a client can find the authorization server.
 */

import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { GatewayOAuthSettings } from '../config/gateway-oauth-settings.js';
import { PRIVATE_KEY_SIGNING_ALGORITHMS } from '../config/types.js';
import { stripControlCodes } from '../text/strip-control-codes.js';
import type { Rejection } from './http-guard.js';

/** Who a verified access token speaks for. */
interface OAuthIdentity {
  /** `sub`, else the client id (a client acting for itself). */
  subject: string;
  /** `client_id` (RFC 9068), else `azp`. */
  clientId?: string;
}

/** Asymmetric algorithms only: a JWKS publishes public keys, and a shared secret would let anyone holding it mint tokens. */
const ALGORITHMS = [...PRIVATE_KEY_SIGNING_ALGORITHMS, 'EdDSA', 'Ed25519'];
const MAX_METADATA_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_CLAIM_CHARACTERS = 256;

/** Untrusted claim text as it goes into the audit: no control codes, bounded. */
function claimText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return stripControlCodes(value).slice(0, MAX_CLAIM_CHARACTERS);
}

function scopesOf(payload: JWTPayload): Set<string> {
  const scopes = new Set<string>();
  if (typeof payload.scope === 'string') for (const scope of payload.scope.split(' ')) scopes.add(scope);
  const scp = payload.scp;
  if (typeof scp === 'string') for (const scope of scp.split(' ')) scopes.add(scope);
  if (Array.isArray(scp)) for (const scope of scp) if (typeof scope === 'string') scopes.add(scope);
  return scopes;
}

/** RFC 8414 puts the well-known segment before the issuer's path; OpenID Connect Discovery appends it. */
function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
}

async function fetchJsonBounded(url: URL): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_METADATA_BYTES) throw new Error(`${url.href} answered more than ${MAX_METADATA_BYTES} bytes`);
  return JSON.parse(text) as unknown;
}

/** The issuer's `jwks_uri` from its metadata, which must name the same issuer. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const metadata = (await fetchJsonBounded(url)) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) throw new Error(`${url.href} names another issuer`);
      if (typeof metadata.jwks_uri !== 'string') throw new Error(`${url.href} has no jwks_uri`);
      return metadata.jwks_uri;
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  throw new Error(
    `the keys of issuer ${issuer} could not be found (${problems.join('; ')}): set gateway.oauth.jwksUri`,
  );
}

interface OAuthChallengeContext {
  /** The protected-resource metadata URL of the requested path. */
  resourceMetadata: string;
}

export function oauthChallenge(
  settings: GatewayOAuthSettings,
  context: OAuthChallengeContext,
  error?: { code: string; description: string },
): Record<string, string> {
  const parts = [`resource_metadata="${context.resourceMetadata}"`];
  if (settings.requiredScopes.length > 0) parts.push(`scope="${settings.requiredScopes.join(' ')}"`);
  if (error) parts.unshift(`error="${error.code}"`, `error_description="${error.description}"`);
  return { 'www-authenticate': `Bearer ${parts.join(', ')}` };
}

/** The 401 for a request without credentials, pointing at the metadata. */
export function oauthMissingTokenRejection(settings: GatewayOAuthSettings, context: OAuthChallengeContext): Rejection {
  return {
    status: 401,
    message: `this gateway needs "Authorization: Bearer ACCESS_TOKEN" from ${settings.issuer} (metadata: ${context.resourceMetadata})`,
    headers: oauthChallenge(settings, context),
  };
}

/** One sentence per way a token fails; fixed texts, never the token's own claims. */
function describeFailure(error: unknown): { status: number; description: string } {
  if (error instanceof errors.JWTExpired) return { status: 401, description: 'the access token has expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return { status: 401, description: 'the access token is not from the configured issuer' };
      case 'aud':
        return { status: 401, description: 'the access token is not meant for this resource (audience)' };
      case 'nbf':
        return { status: 401, description: 'the access token is not valid yet (nbf)' };
      default:
        return { status: 401, description: `the access token's ${error.claim} claim is not acceptable` };
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return { status: 401, description: "the access token's signature does not verify" };
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return { status: 401, description: "no key of the issuer's JWKS matches the access token" };
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return { status: 401, description: "the access token's signing algorithm is not accepted" };
  }
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) {
    return { status: 401, description: 'the access token is not a well-formed JWT' };
  }
  // The issuer's keys could not be had: not the client's fault.
  return { status: 503, description: "the issuer's keys could not be fetched" };
}

interface OAuthVerifier {
  /** `audiences`: what `aud` may hold for the requested path. */
  verify(
    token: string,
    audiences: readonly string[],
    context: OAuthChallengeContext,
  ): Promise<OAuthIdentity | Rejection>;
}

export function createOAuthVerifier(
  settings: GatewayOAuthSettings,
  onDiagnostic: (message: string) => void,
): OAuthVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = (): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    if (keys === undefined) {
      keys = (
        settings.jwksUri !== undefined ? Promise.resolve(settings.jwksUri) : discoverJwksUri(settings.issuer)
      ).then((uri) => createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS }));
      // A failed discovery is tried again on the next request, not remembered.
      keys.catch(() => {
        keys = undefined;
      });
    }
    return keys;
  };

  return {
    async verify(token, audiences, context) {
      let payload: JWTPayload;
      try {
        const { payload: verified } = await jwtVerify(token, await keySet(), {
          issuer: settings.issuer,
          audience: settings.audience !== undefined ? [settings.audience] : [...audiences],
          clockTolerance: settings.clockToleranceSeconds,
          algorithms: ALGORITHMS,
          requiredClaims: ['exp'],
        });
        payload = verified;
      } catch (error) {
        const failure = describeFailure(error);
        if (failure.status === 503) {
          onDiagnostic(`OAuth: ${failure.description}: ${error instanceof Error ? error.message : String(error)}`);
          return { status: 503, message: `${failure.description}; try again later` };
        }
        return {
          status: 401,
          message: failure.description,
          headers: oauthChallenge(settings, context, { code: 'invalid_token', description: failure.description }),
        };
      }
      const scopes = scopesOf(payload);
      const missing = settings.requiredScopes.filter((scope) => !scopes.has(scope));
      if (missing.length > 0) {
        const description = `the access token lacks the scope(s) ${missing.join(' ')}`;
        return {
          status: 403,
          message: description,
          headers: oauthChallenge(settings, context, { code: 'insufficient_scope', description }),
        };
      }
      const clientId = claimText(payload.client_id) ?? claimText(payload.azp);
      const subject = claimText(payload.sub) ?? clientId;
      if (subject === undefined) {
        const description = 'the access token names no subject (sub) or client (client_id)';
        return {
          status: 401,
          message: description,
          headers: oauthChallenge(settings, context, { code: 'invalid_token', description }),
        };
      }
      return { subject, ...(clientId === undefined ? {} : { clientId }) };
    },
  };
}
