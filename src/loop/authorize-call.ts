/**
 * The consent step of a call: an active skill's narrowing, then the policy (rules × annotations × server trust,
 * asking the approver when it says so), then the approval record. Values sent under secret-looking keys join the
 * run's secrets first, so nothing recorded later repeats them.
 */
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { rememberArgumentSecrets } from '../audit/remember-argument-secrets.js';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import type { HostConfig } from '../config/types.js';
import type { Approver } from '../policy/approver.js';
import { type Authorization, authorizeToolCall } from '../policy/authorize-tool-call.js';
import { callToAuthorize, otherServerToolNames, trustOf } from '../policy/catalog-call.js';
import type { RunApprovals } from '../policy/run-approvals.js';
import type { TrustStore } from '../policy/trust-store.js';
import type { ToolCallDependencies } from './execute-tool-call.js';
import type { ToolCallContext } from './tool-call-types.js';

export interface AuthorizeCallSettings {
  config: HostConfig;
  approver: Approver;
  trustStore: TrustStore;
  /** "For this run" answers, kept until the host closes. */
  runApprovals?: RunApprovals;
  /** The catalog the call was routed in, for flagging descriptions that name other servers' tools. */
  catalogEntries: () => readonly CatalogEntry[];
  /** `user`: calls made directly by the user (`tools call`): deny rules apply, nothing asks. */
  initiator: 'model' | 'user';
  /** The run's secret values; grows with the values the model sends under secret-looking keys. */
  secrets?: string[];
  audit: () => AuditRecorder;
  /** Decides the call before the policy is asked when it returns a decision (an active skill's `allowed-tools`). */
  narrow?: (
    entry: CatalogEntry,
    args: Record<string, unknown>,
    context: ToolCallContext,
  ) => Promise<Authorization | undefined>;
}

export function createAuthorizeCall(settings: AuthorizeCallSettings): ToolCallDependencies['authorize'] {
  return async (entry, args, context, call) => {
    if (settings.narrow !== undefined) {
      const narrowed = await settings.narrow(entry, args, context);
      if (narrowed !== undefined) return narrowed;
    }
    if (settings.secrets) rememberArgumentSecrets(args, settings.secrets);
    const toAuthorize = callToAuthorize(entry, args, call.id);
    const authorization = await authorizeToolCall({
      call: toAuthorize,
      trust: trustOf(settings.config, entry),
      rules: settings.config.permissions,
      approver: settings.approver,
      remembered: settings.trustStore,
      runApprovals: settings.runApprovals,
      initiator: settings.initiator,
      otherServerToolNames: otherServerToolNames(settings.catalogEntries(), entry.server),
      signal: context.signal,
    });
    // Only an answer is recorded: a call nobody was asked about costs no trip through the recorder.
    const asked = authorization.asked;
    if (asked !== undefined) await settings.audit().approval(toAuthorize, asked, authorization.decision.reason);
    return authorization;
  };
}
