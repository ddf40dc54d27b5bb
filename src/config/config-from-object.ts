/**
 * The config a library caller hands `createHost` as an object: either one already loaded (`loadConfig`, or built as
 * a `HostConfig`, its `servers` a list) or the content of a config file written in code (`{ mcpServers: { … } }`, its
 * servers keyed by name), which is checked exactly as a file's content is, so a mistake is a `ConfigError` naming
 * the key rather than a crash somewhere inside the host.
 */
import type { Environment } from './env-substitution.js';
import { createEmptyConfig, validateConfig } from './parse-config.js';
import type { HostConfig } from './types.js';

export function configFromObject(
  config: HostConfig | Record<string, unknown>,
  options: { cwd?: string; env?: Environment } = {},
): HostConfig {
  if (Array.isArray((config as { servers?: unknown }).servers)) {
    // Loaded already; the fields a caller building one by hand may leave out take their empty values.
    return { ...createEmptyConfig(), ...(config as HostConfig) };
  }
  return validateConfig(config, options);
}
