/**
 * A gateway replica started in this process on one config, with a state folder of its own and a store shared with
 * the other replicas: what the replica tests start several of, to see which one serves a session.
 */

import type { Environment } from '../../src/config/env-substitution.js';
import { sha256Hex } from '../../src/config/gateway-settings.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createGatewayHosts, type GatewayHosts } from '../../src/gateway/gateway-hosts.js';
import { type GatewayHttp, startGatewayHttp } from '../../src/gateway/gateway-http.js';
import type { GatewayStore } from '../../src/gateway/store/gateway-store.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { type FixtureServerSpec, writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { temporaryDirectory } from '../helpers/project.js';

export interface InProcessReplica {
  hosts: GatewayHosts;
  gateway: GatewayHttp;
  stateDir: string;
}

interface ReplicaOptions {
  configPath: string;
  store: GatewayStore;
  /** The bearer token clients use (its hash is the gateway's only token, named `team`). */
  token: string;
  stateDirPrefix: string;
  onDiagnostic?: (message: string) => void;
  /** What `${env:…}` in the config reads. Default: this process's environment. */
  env?: Environment;
  /** How often a relayed request's owner is probed (default: the gateway's). */
  relayLivenessIntervalMs?: number;
  /** How long a session lasts unused (default: the gateway's). */
  sessionTtlMs?: number;
  /** How long a 2026-07-28 client's log level counts after its last request asking for it (default: the gateway's). */
  modernLevelKeptMs?: number;
}

export async function startInProcessReplica(options: ReplicaOptions): Promise<InProcessReplica> {
  const stateDir = await temporaryDirectory(options.stateDirPrefix);
  const env = options.env ?? process.env;
  const config = await loadConfig({ configPath: options.configPath, cwd: stateDir, env, stateDir });
  const hosts = createGatewayHosts(config, { cwd: stateDir, stateDir, onDiagnostic: () => undefined });
  const gateway = await startGatewayHttp({
    hosts,
    tokens: [{ name: 'team', sha256: sha256Hex(options.token) }],
    port: 0,
    version: '0.0.0',
    onDiagnostic: options.onDiagnostic ?? (() => undefined),
    store: options.store,
    ...(options.relayLivenessIntervalMs === undefined
      ? {}
      : { relayLivenessIntervalMs: options.relayLivenessIntervalMs }),
    ...(options.sessionTtlMs === undefined ? {} : { statelessSessionTtlMs: options.sessionTtlMs }),
    ...(options.modernLevelKeptMs === undefined ? {} : { modernLevelKeptMs: options.modernLevelKeptMs }),
  });
  return { hosts, gateway, stateDir };
}

/**
 * A replica of its own (stateful sessions, its own store) in front of the forwarding fixture server, which answers
 * every level it was asked for: what the log level tests of one replica start.
 */
export async function startForwardingReplica(
  options: Omit<ReplicaOptions, 'configPath' | 'store'>,
): Promise<InProcessReplica> {
  const configPath = await writeFixtureServersConfig(
    { forwarding: { file: 'forwarding.mjs' } },
    { fields: { gateway: { requestsPerMinute: 10_000 } } },
  );
  return startInProcessReplica({ ...options, configPath, store: new MemoryGatewayStore() });
}

/**
 * A replica of stateless sessions in front of the given fixture servers, on the store given: what the tests of a
 * session's record kept in the store start, writing to (or failing) that store themselves.
 */
export async function startStatelessReplica(
  servers: Record<string, FixtureServerSpec>,
  options: Omit<ReplicaOptions, 'configPath'>,
): Promise<InProcessReplica> {
  const configPath = await writeFixtureServersConfig(servers, { fields: { gateway: { stateless: true } } });
  return startInProcessReplica({ ...options, configPath });
}

/** Closes the replica's gateway, then its hosts (stopping their servers). */
export async function closeInProcessReplica(replica: InProcessReplica | undefined): Promise<void> {
  await replica?.gateway.close();
  await replica?.hosts.close();
}
