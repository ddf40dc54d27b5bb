/**
 * `gateway.stateless` and `gateway.store`: running the HTTP gateway as replicas behind a load balancer. Stateless
 * sessions keep what a later request needs (the session's owner, the client's capabilities, answers to pending
 * approvals, rate-limit counts) in the store instead of one process's memory; the store is in memory (one process)
 * or Redis (shared by every replica).
 */

import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { type Environment, substituteEnvironment } from './env-substitution.js';

export type GatewayStoreSettings = { type: 'memory' } | { type: 'redis'; url: string; keyPrefix: string };

const DEFAULT_STORE_KEY_PREFIX = 'mcp-host:';

export const gatewayStoreSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('memory') }),
    z.strictObject({
      type: z.literal('redis'),
      url: z.string({ error: 'a redis:// or rediss:// URL as a string' }),
      keyPrefix: z.string({ error: 'a string' }).max(100).optional(),
    }),
  ],
  { error: '{"type": "memory"} or {"type": "redis", "url": "redis://…", "keyPrefix"?}' },
);

interface BuildContext {
  file: string | undefined;
  env: Environment;
  secrets: Set<string>;
}

export function buildGatewayStoreSettings(
  value: z.infer<typeof gatewayStoreSchema>,
  context: BuildContext,
  stateless: boolean | undefined,
): GatewayStoreSettings {
  if (value.type === 'memory') return { type: 'memory' };
  if (stateless !== true) {
    throw new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: 'gateway.stateless',
      expected: 'true with a shared store (gateway.store.type "redis"): only stateless sessions use it',
      found: JSON.stringify(stateless ?? null),
    });
  }
  // The URL may hold a password: collected as a secret, so it is redacted wherever it would be printed.
  const url = substituteEnvironment(value.url, 'gateway.store.url', context);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')) {
    throw new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: 'gateway.store.url',
      expected: 'a redis:// or rediss:// URL',
      found: parsed === undefined ? 'not a URL' : `a ${parsed.protocol} URL`,
    });
  }
  if (parsed.password !== '') context.secrets.add(decodeURIComponent(parsed.password));
  return { type: 'redis', url, keyPrefix: value.keyPrefix ?? DEFAULT_STORE_KEY_PREFIX };
}
