/**
 * The config keys of `mcp-host serve`: `gateway` (who may connect over HTTP and how much they may send) and
 * `profiles` (named subsets of servers and tools with their own permissions). Shapes are zod schemas; meaning
 * (token values hashed, names checked against the configured servers) is applied here with errors naming the key.
 */

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { setOwnProperty } from '../json/own-property.js';
import { ConfigError } from './config-error.js';
import { type Environment, substituteEnvironment } from './env-substitution.js';
import { buildGatewayOAuthSettings, type GatewayOAuthSettings, gatewayOAuthSchema } from './gateway-oauth-settings.js';
import { buildGatewayStoreSettings, type GatewayStoreSettings, gatewayStoreSchema } from './gateway-store-settings.js';
import type { PermissionRules } from './types.js';

/** How an "ask" decision is answered for a downstream client. */
export type GatewayConsent = 'elicit' | 'deny';

export interface GatewayToken {
  /** Who holds it; recorded in the audit as the calling client's principal. */
  name: string;
  /** SHA-256 of the token, hex. Plain tokens in the config are hashed on load and kept only as secrets. */
  sha256: string;
}

export interface GatewaySettings {
  tokens: GatewayToken[];
  /** Origins a browser-based client may send from, besides loopback ones. */
  allowedOrigins: string[];
  /** Host header values accepted besides loopback names (e.g. when bound to another interface). */
  allowedHosts: string[];
  maxRequestBytes: number;
  /** Per client (token, or remote address without tokens). */
  requestsPerMinute: number;
  consent: GatewayConsent;
  /** How long an elicited approval may take before the call is denied. */
  approvalTimeoutMs: number;
  /** Open stateful HTTP sessions at most, all clients together. */
  maxSessions: number;
  /** Open stateful HTTP sessions at most per client (token, or OAuth subject). */
  maxSessionsPerClient: number;
  /** A stateful HTTP session with no request and no open stream for this long is closed. */
  sessionIdleTimeoutMs: number;
  /**
   * A server left failed (it failed to start, or went down more times in a row than it is restarted by itself) is
   * started again after this long, the wait doubling after each attempt that fails, up to ten minutes (or this, when
   * longer); 0: never.
   */
  retryFailedServersMs: number;
  /** OAuth 2.1 resource-server mode: JWT access tokens from this issuer are accepted besides `tokens`. */
  oauth?: GatewayOAuthSettings;
  /** Sessions kept in the store, so that any replica answers any request. */
  stateless: boolean;
  /** What replicas share; memory when absent. */
  store: GatewayStoreSettings;
}

export interface GatewayProfile {
  /** Server names; empty means every server. */
  servers: string[];
  /** Namespaced tool-name globs; empty means every tool of the profile's servers. */
  tools: string[];
  /** Added to the config's own rules (a profile narrows, it never widens: the config's deny rules still apply). */
  permissions: PermissionRules;
  consent?: GatewayConsent;
}

export const DEFAULT_GATEWAY_SETTINGS: GatewaySettings = {
  tokens: [],
  allowedOrigins: [],
  allowedHosts: [],
  maxRequestBytes: 4 * 1024 * 1024,
  requestsPerMinute: 600,
  consent: 'elicit',
  approvalTimeoutMs: 120_000,
  maxSessions: 200,
  maxSessionsPerClient: 20,
  sessionIdleTimeoutMs: 30 * 60_000,
  retryFailedServersMs: 30_000,
  stateless: false,
  store: { type: 'memory' },
};

const stringList = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });
const consentSchema = z.enum(['elicit', 'deny'], { error: '"elicit" or "deny"' });
const positive = (what: string) =>
  z.int({ error: `a positive whole number of ${what}` }).positive({ error: `a positive whole number of ${what}` });

/** The shortest token accepted, in the config or in `MCP_HOST_GATEWAY_TOKEN`. */
export const MIN_GATEWAY_TOKEN_CHARACTERS = 16;

const tokenSchema = z.union(
  [
    z.strictObject({
      name: z.string({ error: 'a name as a string' }).min(1, { error: 'a name that is not empty' }),
      sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: '64 hexadecimal digits' }),
    }),
    z.strictObject({
      name: z.string({ error: 'a name as a string' }).min(1, { error: 'a name that is not empty' }),
      token: z.string({ error: 'the token as a string' }).min(MIN_GATEWAY_TOKEN_CHARACTERS, {
        error: `a token of at least ${MIN_GATEWAY_TOKEN_CHARACTERS} characters, e.g. "\${env:GATEWAY_TOKEN}"`,
      }),
    }),
  ],
  {
    error:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this message shows the config syntax.
      'an object {"name", "sha256"} (SHA-256 of the token, hex) or {"name", "token"} (at least 16 characters, e.g. "${env:GATEWAY_TOKEN}")',
  },
);

export const gatewaySchema = z.strictObject(
  {
    tokens: z.array(tokenSchema, { error: 'an array of tokens' }).optional(),
    allowedOrigins: stringList.optional(),
    allowedHosts: stringList.optional(),
    maxRequestBytes: positive('bytes').optional(),
    requestsPerMinute: positive('requests').optional(),
    consent: consentSchema.optional(),
    approvalTimeoutMs: positive('milliseconds').optional(),
    maxSessions: positive('sessions').optional(),
    maxSessionsPerClient: positive('sessions').optional(),
    sessionIdleTimeoutMs: positive('milliseconds').optional(),
    retryFailedServersMs: z
      .int({ error: 'a whole number of milliseconds, 0 or more (0: never)' })
      .nonnegative({ error: 'a whole number of milliseconds, 0 or more (0: never)' })
      .optional(),
    oauth: gatewayOAuthSchema.optional(),
    stateless: z.boolean({ error: 'true or false' }).optional(),
    store: gatewayStoreSchema.optional(),
  },
  {
    error:
      'an object with `tokens`, `allowedOrigins`, `allowedHosts`, `maxRequestBytes`, `requestsPerMinute`, `consent`, `approvalTimeoutMs`, `maxSessions`, `maxSessionsPerClient`, `sessionIdleTimeoutMs`, `retryFailedServersMs`, `oauth`, `stateless` or `store`',
  },
);

const profileSchema = z.strictObject(
  {
    servers: stringList.optional(),
    tools: stringList.optional(),
    permissions: z
      .strictObject({ allow: stringList.optional(), ask: stringList.optional(), deny: stringList.optional() })
      .optional(),
    consent: consentSchema.optional(),
  },
  { error: 'an object with `servers`, `tools`, `permissions` or `consent`' },
);

export const profilesSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'a profile name of letters, digits, `_` and `-`' }),
  profileSchema,
  { error: 'an object mapping profile names to profiles' },
);

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

interface BuildContext {
  file: string | undefined;
  env: Environment;
  secrets: Set<string>;
}

export function buildGatewaySettings(value: z.infer<typeof gatewaySchema>, context: BuildContext): GatewaySettings {
  const tokens = (value.tokens ?? []).map((entry, index): GatewayToken => {
    if ('sha256' in entry) return { name: entry.name, sha256: entry.sha256.toLowerCase() };
    const token = substituteEnvironment(entry.token, `gateway.tokens[${index}].token`, context);
    context.secrets.add(token);
    return { name: entry.name, sha256: sha256Hex(token) };
  });
  return {
    ...DEFAULT_GATEWAY_SETTINGS,
    ...Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)),
    tokens,
    ...(value.oauth === undefined ? {} : { oauth: buildGatewayOAuthSettings(value.oauth, context) }),
    store:
      value.store === undefined ? { type: 'memory' } : buildGatewayStoreSettings(value.store, context, value.stateless),
  };
}

export function buildProfiles(
  value: z.infer<typeof profilesSchema>,
  serverNames: ReadonlySet<string>,
  file: string | undefined,
): Record<string, GatewayProfile> {
  const profiles: Record<string, GatewayProfile> = {};
  for (const [name, profile] of Object.entries(value)) {
    for (const [index, server] of (profile.servers ?? []).entries()) {
      if (!serverNames.has(server)) {
        throw new ConfigError({
          code: 'config-invalid',
          file,
          keyPath: `profiles.${name}.servers[${index}]`,
          expected: `the name of a configured server (${[...serverNames].join(', ') || 'none configured'})`,
          found: JSON.stringify(server),
        });
      }
    }
    setOwnProperty(profiles, name, {
      servers: profile.servers ?? [],
      tools: profile.tools ?? [],
      permissions: {
        allow: profile.permissions?.allow ?? [],
        ask: profile.permissions?.ask ?? [],
        deny: profile.permissions?.deny ?? [],
      },
      ...(profile.consent === undefined ? {} : { consent: profile.consent }),
    });
  }
  return profiles;
}
