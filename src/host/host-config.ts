/**
 * The config a host runs on: the object given, checked as a file's content is, or the file named (default
 * `mcp-host.json`, then `.mcp.json`), with no server under a name the host keeps for itself. Its warnings are told.
 */
import { configFromObject } from '../config/config-from-object.js';
import { loadConfig } from '../config/load-config.js';
import { assertNoReservedServerNames } from '../config/reserved-names.js';
import type { HostConfig } from '../config/types.js';
import type { HostOptions } from './host-types.js';

export async function openHostConfig(
  options: Pick<HostOptions, 'config' | 'stateDir'>,
  cwd: string,
  env: Record<string, string | undefined>,
  onDiagnostic: (message: string) => void,
): Promise<HostConfig> {
  const config =
    typeof options.config === 'object'
      ? configFromObject(options.config, { cwd, env })
      : await loadConfig({ configPath: options.config, cwd, env, stateDir: options.stateDir });
  assertNoReservedServerNames(config);
  for (const warning of config.warnings ?? []) onDiagnostic(warning);
  return config;
}

/**
 * The run's config: the config with a list of secrets of its own, which grows during the run with the values the
 * model sends under secret-looking keys (see loop/authorize-call) and the credentials the OAuth flow reads (see
 * connections/oauth/remote-authorization).
 */
export function runConfigOf(config: HostConfig): HostConfig {
  return { ...config, secrets: [...config.secrets] };
}
