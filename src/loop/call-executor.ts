/**
 * One tool call with every duty the host's settings and state give it: each step is built from its own file and
 * handed to `createToolCallExecutor`, which runs them in order. Wiring only.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { ArgumentValidator } from '../catalog/argument-validation.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import type { HostConfig } from '../config/types.js';
import type { ResultStore } from '../content/result-store.js';
import type { Approver } from '../policy/approver.js';
import type { RunApprovals } from '../policy/run-approvals.js';
import type { TrustStore } from '../policy/trust-store.js';
import { type AuthorizeCallSettings, createAuthorizeCall } from './authorize-call.js';
import { createCallOptions } from './call-timeouts.js';
import { createCheckArguments } from './check-arguments.js';
import { createToolCallExecutor, type ToolCallDependencies } from './execute-tool-call.js';
import { createRecordCall } from './record-call.js';
import { createShapeResult } from './shape-result.js';
import type { ExecuteToolCall, ToolProgressUpdate } from './tool-call-types.js';

interface CallExecutorSettings
  extends Pick<
    ToolCallDependencies,
    'describeMissing' | 'server' | 'hostTools' | 'confirmCurrent' | 'askToOpenRequiredUrl' | 'serverExitsShown'
  > {
  config: HostConfig;
  /** The catalog calls are routed in. */
  catalog: () => ToolCatalog;
  /** Every tool listed, those the caller may not call included: the names a description is checked against. */
  fullCatalog: () => ToolCatalog;
  initiator: AuthorizeCallSettings['initiator'];
  approver: Approver;
  trustStore: TrustStore;
  runApprovals?: RunApprovals;
  narrow?: AuthorizeCallSettings['narrow'];
  argumentValidator: ArgumentValidator;
  results: ResultStore;
  audit: () => AuditRecorder;
  /** The run's secret values: redacted from the audit, added to as the model sends secret-looking arguments. */
  secrets: string[];
  toolTimeoutMs?: number;
  maxResultTokens?: number;
  onProgress?: (update: ToolProgressUpdate) => void;
  /** A result was cut by the output budget (its rest was stored). */
  onResultCut?: () => void;
  onDiagnostic: (message: string) => void;
}

export function createCallExecutor(settings: CallExecutorSettings): ExecuteToolCall {
  const { config, audit, secrets } = settings;
  return createToolCallExecutor({
    catalog: settings.catalog,
    ...(settings.describeMissing ? { describeMissing: settings.describeMissing } : {}),
    server: settings.server,
    ...(settings.hostTools ? { hostTools: settings.hostTools } : {}),
    ...(settings.confirmCurrent ? { confirmCurrent: settings.confirmCurrent } : {}),
    ...(settings.askToOpenRequiredUrl ? { askToOpenRequiredUrl: settings.askToOpenRequiredUrl } : {}),
    ...(settings.serverExitsShown === undefined ? {} : { serverExitsShown: settings.serverExitsShown }),
    callOptions: createCallOptions({
      config,
      ...(settings.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: settings.toolTimeoutMs }),
      ...(settings.onProgress ? { onProgress: settings.onProgress } : {}),
    }),
    validateArguments: createCheckArguments(settings.argumentValidator, settings.onDiagnostic),
    authorize: createAuthorizeCall({
      config,
      approver: settings.approver,
      trustStore: settings.trustStore,
      ...(settings.runApprovals ? { runApprovals: settings.runApprovals } : {}),
      catalogEntries: () => settings.fullCatalog().entries,
      initiator: settings.initiator,
      secrets,
      audit,
      ...(settings.narrow ? { narrow: settings.narrow } : {}),
    }),
    shapeResult: createShapeResult({
      config,
      results: settings.results,
      ...(settings.maxResultTokens === undefined ? {} : { maxResultTokens: settings.maxResultTokens }),
      ...(settings.onResultCut ? { onCut: settings.onResultCut } : {}),
    }),
    record: createRecordCall({ config, audit, secrets }),
  });
}
