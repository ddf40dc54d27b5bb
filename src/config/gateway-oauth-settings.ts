/**
 * `gateway.oauth`: the gateway as an OAuth 2.1 resource server. Clients bring JWT access tokens from an
 * authorization server (the issuer); the gateway checks them against the issuer's published keys (JWKS), the
 * audience (its own resource URL), the time claims and the required scopes. URLs may come from the environment
 * (`${env:…}`) and are checked here, with errors naming the key.
 */

import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { type Environment, substituteEnvironment } from './env-substitution.js';

export interface GatewayOAuthSettings {
  /** The authorization server's issuer identifier; tokens must carry it as `iss`. */
  issuer: string;
  /** Where the issuer's keys are; absent: read from the issuer's metadata (RFC 8414, then OpenID discovery). */
  jwksUri?: string;
  /**
   * The gateway's resource URL as clients reach it (behind a load balancer: the public one), e.g.
   * `https://mcp.example.com/mcp`. Absent: the URL the gateway listens on.
   */
  resource?: string;
  /** Accepted as `aud` instead of the resource URL, for issuers that name APIs otherwise. */
  audience?: string;
  /** Every one of these must be in the token's `scope` (or `scp`). */
  requiredScopes: string[];
  /** Leeway for `exp` and `nbf`. */
  clockToleranceSeconds: number;
}

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

export const gatewayOAuthSchema = z.strictObject(
  {
    issuer: z.string({ error: 'the issuer URL as a string' }),
    jwksUri: z.string({ error: 'a URL as a string' }).optional(),
    resource: z.string({ error: 'a URL as a string' }).optional(),
    audience: z.string({ error: 'a string' }).min(1, { error: 'a string that is not empty' }).optional(),
    requiredScopes: z
      .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { error: 'a scope (printable, no spaces or quotes)' }), {
        error: 'an array of scopes',
      })
      .optional(),
    clockToleranceSeconds: z
      .int({ error: 'a whole number of seconds from 0 to 300' })
      .min(0, { error: 'a whole number of seconds from 0 to 300' })
      .max(300, { error: 'a whole number of seconds from 0 to 300' })
      .optional(),
  },
  {
    error:
      'an object with `issuer` and optionally `jwksUri`, `resource`, `audience`, `requiredScopes` or `clockToleranceSeconds`',
  },
);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An absolute https URL (http only on a loopback host), without a fragment. */
export function checkSecureUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'an absolute URL';
  }
  if (url.hash !== '') return 'a URL without a fragment (#…)';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'an https URL (http only on 127.0.0.1, localhost or [::1])';
}

interface BuildContext {
  file: string | undefined;
  env: Environment;
  secrets: Set<string>;
}

export function buildGatewayOAuthSettings(
  value: z.infer<typeof gatewayOAuthSchema>,
  context: BuildContext,
): GatewayOAuthSettings {
  const url = (key: 'issuer' | 'jwksUri' | 'resource', raw: string): string => {
    const keyPath = `gateway.oauth.${key}`;
    // A URL is not a secret: substituted without collecting it, so it stays readable in messages.
    const substituted = substituteEnvironment(raw, keyPath, { ...context, secrets: new Set() });
    const problem = checkSecureUrl(substituted);
    if (problem !== undefined) {
      throw new ConfigError({
        code: 'config-invalid',
        file: context.file,
        keyPath,
        expected: problem,
        found: JSON.stringify(substituted),
      });
    }
    return substituted;
  };
  return {
    issuer: url('issuer', value.issuer),
    ...(value.jwksUri === undefined ? {} : { jwksUri: url('jwksUri', value.jwksUri) }),
    ...(value.resource === undefined ? {} : { resource: url('resource', value.resource).replace(/\/+$/, '') }),
    ...(value.audience === undefined ? {} : { audience: value.audience }),
    requiredScopes: value.requiredScopes ?? [],
    clockToleranceSeconds: value.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
  };
}
