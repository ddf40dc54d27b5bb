/**
 * The host's tool-call executors: every call, the model's, the user's or an app's, runs the loop's steps with the
 * host's settings and state, and reaches the catalog, the servers, the host's own tools and the client features
 * through them. The model's calls are also narrowed by an active skill's `allowed-tools`.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { createArgumentValidator } from '../catalog/argument-validation.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import type { ClientFeatures } from '../client-features/client-features.js';
import type { HostConfig } from '../config/types.js';
import type { ServerConnection } from '../connections/server-connection.js';
import type { ResultStore } from '../content/result-store.js';
import { createCallExecutor } from '../loop/call-executor.js';
import type { HostToolHandler } from '../loop/execute-tool-call.js';
import type { ExecuteToolCall } from '../loop/tool-call-types.js';
import type { Approver } from '../policy/approver.js';
import { RunApprovals } from '../policy/run-approvals.js';
import type { TrustStore } from '../policy/trust-store.js';
import type { HostSkills } from './host-skills.js';
import type { HostOptions } from './host-types.js';
import type { LiveCatalog } from './live-catalog.js';

interface HostCallExecutorsOptions {
  config: HostConfig;
  options: Pick<
    HostOptions,
    'toolTimeoutMs' | 'maxResultTokens' | 'onProgress' | 'onDiagnostic' | 'warningsSayServerExits'
  >;
  catalog: LiveCatalog;
  approver: Approver;
  state: { trustStore: TrustStore; results: ResultStore };
  audit: AuditRecorder;
  secrets: string[];
  skills: Pick<HostSkills, 'narrow'>;
  hostTools: { readonly handlers: ReadonlyMap<string, HostToolHandler>; resultStored(): void };
  features: Pick<ClientFeatures, 'askToOpenRequiredUrl'>;
  connections: ReadonlyMap<string, ServerConnection>;
  /** The tools the model is offered (with tool discovery, those it has found): its calls are routed in them. */
  modelCatalog: () => ToolCatalog;
  onDiagnostic: (message: string) => void;
}

interface HostCallExecutors {
  forModel: ExecuteToolCall;
  forUser: ExecuteToolCall;
  /** An app's call is decided as the model's would be (it may ask), but may reach the app's own tools. */
  forApp: ExecuteToolCall;
}

/** The executors share the run's approvals ("allow for this run") and the compiled argument schemas. */
export function hostCallExecutors(settings: HostCallExecutorsOptions): HostCallExecutors {
  const { config, options, catalog, state, audit, skills, hostTools, features, connections } = settings;
  const runApprovals = new RunApprovals();
  const argumentValidator = createArgumentValidator();
  const fullCatalog = () => catalog.current();
  const executorFor = (initiator: 'model' | 'user', callable: () => ToolCatalog): ExecuteToolCall =>
    createCallExecutor({
      config,
      catalog: callable,
      fullCatalog,
      initiator,
      approver: settings.approver,
      trustStore: state.trustStore,
      runApprovals,
      // An active skill's allowed-tools narrow the model's calls before the policy is asked; the user's own are theirs.
      ...(initiator === 'model'
        ? { narrow: (entry, args, context) => skills.narrow(entry, args, context, hostTools.handlers.has(entry.name)) }
        : {}),
      argumentValidator,
      results: state.results,
      audit: () => audit,
      secrets: settings.secrets,
      toolTimeoutMs: options.toolTimeoutMs,
      maxResultTokens: options.maxResultTokens,
      onProgress: options.onProgress,
      onResultCut: hostTools.resultStored,
      onDiagnostic: settings.onDiagnostic,
      // A server's exit is reported through `onDiagnostic` (see server-events.ts): with none, nobody has heard it; and
      // whoever reads the warnings may not read it.
      serverExitsShown: !(options.warningsSayServerExits ?? options.onDiagnostic === undefined),
      describeMissing: (name) => catalog.describeMissing(name),
      server: (name) => connections.get(name),
      hostTools: hostTools.handlers,
      confirmCurrent: (entry, signal) => catalog.confirmCurrentAtOnce(entry, signal),
      askToOpenRequiredUrl: (entry, required, context) =>
        features.askToOpenRequiredUrl(
          entry.server,
          { ...required, message: `To run the tool ${entry.name}: ${required.message}` },
          context.signal,
        ),
    });
  return {
    forModel: executorFor('model', settings.modelCatalog),
    forUser: executorFor('user', fullCatalog),
    forApp: executorFor('model', fullCatalog),
  };
}
