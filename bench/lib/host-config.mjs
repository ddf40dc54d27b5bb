/**
 * How the benchmarks start the stdio bench server: on the same Node binary as the benchmark itself,
 * so host and servers share one runtime, and always in a session of its own.
 *
 * Why a session of its own: mcp-host starts every server in its own process group and session, and
 * on Linux with scheduler autogroups (the default) each session gets its own share of the CPU. On a
 * busy machine a server in its own session therefore runs faster than one left in its client's
 * session, which would flatter mcp-host against the baselines. Starting the baselines' servers through
 * `setsid` gives every client's servers the same footing.
 */
import { existsSync } from 'node:fs';
import { projectDirectory, stdioServerPath } from './paths.mjs';

const SETSID = '/usr/bin/setsid';

/** Arguments that start the bench server named `name`, serving no sooner than `readyAfterMs` after it starts. */
export function benchServerArguments(name, readyAfterMs = 0) {
  return readyAfterMs > 0 ? [stdioServerPath, name, String(readyAfterMs)] : [stdioServerPath, name];
}

export function benchServerConfig(name, overrides = {}, readyAfterMs = 0) {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: benchServerArguments(name, readyAfterMs),
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

/**
 * Command and arguments that start the bench server in a session of its own, for clients that do
 * not do so themselves (the raw SDK, @ai-sdk/mcp). Where `setsid` is missing, the server runs as is.
 */
export function ownSessionServerCommand(name, readyAfterMs = 0) {
  const args = benchServerArguments(name, readyAfterMs);
  return existsSync(SETSID)
    ? { command: SETSID, args: ['--wait', process.execPath, ...args] }
    : { command: process.execPath, args };
}
