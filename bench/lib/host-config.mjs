/**
 * HostConfig objects built in code for the benchmarks: stdio servers running the bench server on the
 * same Node binary as the benchmark itself, so host and servers share one runtime.
 */
import { projectDirectory, stdioServerPath } from './paths.mjs';

/** Arguments that start the bench server named `name`, optionally after a start-up wait. */
export function benchServerArguments(name, startDelayMs = 0) {
  return startDelayMs > 0 ? [stdioServerPath, name, String(startDelayMs)] : [stdioServerPath, name];
}

export function benchServerConfig(name, overrides = {}, startDelayMs = 0) {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: benchServerArguments(name, startDelayMs),
    env: {},
    cwd: projectDirectory,
    trust: 'trusted',
    timeoutMs: 60_000,
    disabled: false,
    versionNegotiation: 'legacy',
    ...overrides,
  };
}

export function hostConfig(servers) {
  return { servers, permissions: { allow: [], ask: [], deny: [] }, secrets: [], warnings: [] };
}
