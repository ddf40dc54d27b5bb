/**
 * The client features as a host configures them: the caller's settings over the config's, the host's model for
 * sampling, server logs in the state folder, client requests in the audit log, and what the resource tools read
 * fitted into the host's output budget.
 */
import { join } from 'node:path';
import type { AuditSink } from '../audit/audit-sink.js';
import { type ClientFeatures, createClientFeatures } from '../client-features/client-features.js';
import type { ResultBudget } from '../client-features/resource-host-tools.js';
import type { HostConfig } from '../config/types.js';
import type { LlmProvider } from '../providers/types.js';
import type { HostOptions } from './host-types.js';

interface HostClientFeaturesSettings {
  config: HostConfig;
  cwd: string;
  env: Record<string, string | undefined>;
  model: { provider(): Promise<LlmProvider>; configured(spec: string): Promise<LlmProvider> };
  state: { stateDir: string; audit: AuditSink };
  runId: string;
  secrets: string[];
  onDiagnostic: (message: string) => void;
  /** What the resource tools read is fitted into this (see client-features/stored-result-budget.ts). */
  budget: ResultBudget;
  callsInFlight: (server: string) => number;
}

export function openHostClientFeatures(options: HostOptions, settings: HostClientFeaturesSettings): ClientFeatures {
  const { config, model, state } = settings;
  return createClientFeatures({
    config,
    cwd: settings.cwd,
    env: settings.env,
    roots: options.roots,
    approver: options.clientRequestApprover,
    allowSampling: options.allowSampling,
    provider: model.provider,
    createProvider: model.configured,
    onServerLog: options.onServerLog,
    onResourceUpdated: options.onResourceUpdated,
    onDiagnostic: settings.onDiagnostic,
    audit: { sink: state.audit, runId: settings.runId, secrets: settings.secrets },
    serverLogDirectory: join(state.stateDir, 'logs'),
    budget: settings.budget,
    callsInFlight: settings.callsInFlight,
    ...options.clientFeatures,
  });
}
