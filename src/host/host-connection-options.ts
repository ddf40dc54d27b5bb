/**
 * How the host's connections to its servers are made: with the client features' capabilities and handlers, what
 * they report told through the host's server events, long result texts written to the result store as they arrive,
 * OAuth when a remote server asks for it, and the run's secrets redacted from what servers say.
 */
import type { ClientFeatures } from '../client-features/client-features.js';
import type { HostConfig } from '../config/types.js';
import type { ServerConnectionOptions } from '../connections/server-connection.js';
import type { ResultStore } from '../content/result-store.js';
import type { HostOptions } from './host-types.js';
import { remoteServerAuthorization } from './remote-server-authorization.js';

interface HostConnectionSettings {
  /** The run's config: its `secrets` are the list that grows during the run. */
  runConfig: HostConfig;
  features: Pick<ClientFeatures, 'capabilities' | 'configureClient'>;
  events: Pick<ServerConnectionOptions, 'onDiagnostic' | 'onToolsChanged' | 'onExit'>;
  state: { stateDir: string; results: ResultStore };
  onDiagnostic: (message: string) => void;
}

export async function hostConnectionOptions(
  options: HostOptions,
  settings: HostConnectionSettings,
): Promise<ServerConnectionOptions> {
  const { runConfig, features, events, state, onDiagnostic } = settings;
  return {
    capabilities: features.capabilities,
    configureClient: features.configureClient,
    onDiagnostic: events.onDiagnostic,
    onToolsChanged: events.onToolsChanged,
    onExit: events.onExit,
    transportFactory: options.transportFactory,
    // A tool result's text too long to hold in memory goes to the result store as it arrives.
    openSpill: () => state.results.startStream(),
    authorization: await remoteServerAuthorization(runConfig, state.stateDir, options, onDiagnostic),
    secrets: runConfig.secrets,
  };
}
