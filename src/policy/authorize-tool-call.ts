/**
 * The consent step of a tool call, whole: the policy decision, the approver when the policy asks, remembering an
 * "always allow" answer, and the outcome the loop needs (run it or not, the reason for the audit log, the error
 * text for the model when it does not run). The loop calls this once per call and stays free of policy logic.
 */

import type { PermissionRules, ServerTrust } from '../config/types.js';
import { callBeingMade } from '../connections/call-being-made.js';
import {
  type Approver,
  ruleDenialMessage,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
  USER_DENIED_MESSAGE,
} from './approver.js';
import { decideToolCall, type PolicyDecision, type PolicySource } from './decide-tool-call.js';
import type { HiddenContentFlag } from './hidden-content.js';
import type { RunApprovals } from './run-approvals.js';
import type { PinnableTool } from './tool-definition.js';
import { findHiddenContentInTool } from './tool-hidden-content.js';
import type { RememberedApprovals } from './trust-store.js';

export interface ToolCallToAuthorize {
  callId?: string;
  /** Namespaced. */
  toolName: string;
  serverName: string;
  originalToolName: string;
  /** Parsed arguments, exactly as they will be sent (the raw text when they did not parse). */
  arguments: unknown;
  /** The tool as its server listed it (`CatalogEntry.tool`): annotations, description and schemas are read from it. */
  tool?: PinnableTool;
}

interface AuthorizeToolCallOptions {
  call: ToolCallToAuthorize;
  trust: ServerTrust;
  rules: PermissionRules;
  approver: Approver;
  /** Where "always allow" answers live (a `TrustStore`); without it they last for this call only. */
  remembered?: RememberedApprovals;
  /**
   * `model` (default): the model asked for the call. `user`: the user called the tool directly (`tools call`), which
   * is their own act: deny rules still apply, nothing else asks.
   */
  initiator?: 'model' | 'user';
  /** For flagging a description that names other servers' tools (see `crossReferenceNames`). */
  otherServerToolNames?: readonly string[];
  /** Where "for this run" answers live; without it those answers allow this call only. */
  runApprovals?: RunApprovals;
  signal?: AbortSignal;
}

/** Who made the final call: the policy's source, the approver, or the user acting directly. */
type DecidedBy = PolicySource | 'approver' | 'direct-call' | 'run-approval';

/** Who was asked about a call, and what they answered. */
export interface ApproverAnswer {
  /** The approver's kind (`terminal`, `headless`, `yes` …). */
  approver: string;
  answer: ToolApprovalAnswer;
}

export interface Authorization {
  allowed: boolean;
  /** The policy's verdict before anyone was asked. */
  decision: PolicyDecision;
  decidedBy: DecidedBy;
  /** The trust the decision was made under: the server's, or `trusted` for the host's own tools. Absent only on records of calls that named no known tool. */
  trust?: ServerTrust;
  /** Present exactly when an approver was asked: what the audit log records as the approval. */
  asked?: ApproverAnswer;
  /** The sentence for the audit log: what decided and why. */
  reason: string;
  /** When not allowed: the text of the error result for this call id. */
  denialMessage?: string;
  warnings: string[];
  hiddenContent: HiddenContentFlag[];
}

export async function authorizeToolCall(options: AuthorizeToolCallOptions): Promise<Authorization> {
  const { call, trust, rules, remembered } = options;
  const decide = (alwaysAllowed?: ReadonlySet<string>) =>
    decideToolCall({
      toolName: call.toolName,
      serverName: call.serverName,
      originalToolName: call.originalToolName,
      trust,
      rules,
      annotations: call.tool?.annotations,
      alwaysAllowed,
    });
  // A remembered "always allow" matters only where the policy would ask, so the store is read only then
  // (it checks its file for changes made by another process, which costs more than the decision itself).
  let decision = decide();
  if (decision.action === 'ask' && remembered?.isAlwaysAllowed(call.serverName, call.originalToolName)) {
    decision = decide(new Set([call.toolName]));
  }
  const hiddenContent =
    call.tool === undefined ? [] : findHiddenContentInToolCached(call.tool, options.otherServerToolNames ?? []);
  // Spread last in the answers below: on Node 20 an object that starts as a spread costs microseconds per key added
  // after it, and this runs for every call.
  const base = { decision, trust, warnings: decision.warnings, hiddenContent };

  if (decision.action === 'deny') {
    return {
      allowed: false,
      decidedBy: 'rule',
      reason: decision.reason,
      denialMessage: ruleDenialMessage(decision.rule ?? ''),
      ...base,
    };
  }
  if (options.initiator === 'user') {
    // The warnings are for whoever lets a model's call run; here the user is the one calling.
    return {
      allowed: true,
      decidedBy: 'direct-call',
      reason: 'Called directly by the user.',
      decision,
      trust,
      warnings: [],
      hiddenContent,
    };
  }
  if (decision.action === 'allow')
    return { allowed: true, decidedBy: decision.source, reason: decision.reason, ...base };

  // Named where it is asked, in the call's own context: the requests it goes on to send are made in that name.
  const madeFor = callBeingMade();
  const request = {
    serverName: call.serverName,
    toolName: call.toolName,
    originalToolName: call.originalToolName,
    arguments: call.arguments,
    ...(call.tool?.annotations === undefined ? {} : { annotations: call.tool.annotations }),
    trust,
    reason: decision.reason,
    warnings: decision.warnings,
    ...(call.tool?.description === undefined ? {} : { description: call.tool.description }),
    hiddenContent,
    canAlwaysAllow: decision.source !== 'rule',
    ...(call.callId === undefined ? {} : { callId: call.callId }),
    ...(madeFor === undefined ? {} : { call: madeFor }),
  };
  const runApprovals = options.runApprovals;
  // Where a rule asks, only the rule's own answer counts, as for "always allow".
  if (runApprovals === undefined || !request.canAlwaysAllow) return ask(options, request, base);
  return runApprovals.exclusive(async () => {
    // Checked once this question's turn has come: an answer given while it waited may already cover it.
    const scope = runApprovals.covering(call.serverName, call.originalToolName);
    if (scope === undefined) return ask(options, request, base);
    const what = scope === 'server' ? `every tool of server ${call.serverName}` : call.toolName;
    return {
      allowed: true,
      decidedBy: 'run-approval' as const,
      reason: `You allowed ${what} for this run. Asked before because: ${decision.reason}`,
      ...base,
    };
  });
}

async function ask(
  options: AuthorizeToolCallOptions,
  request: ToolApprovalRequest,
  base: Pick<Authorization, 'decision' | 'trust' | 'warnings' | 'hiddenContent'>,
): Promise<Authorization> {
  const { call, approver, remembered } = options;
  const decision = base.decision;
  const answer = await approver.approveToolCall(request, options.signal);
  const approval = { decidedBy: 'approver' as const, asked: { approver: approver.kind, answer }, ...base };
  if (answer === 'deny') {
    return {
      allowed: false,
      reason: `Denied by ${describeApprover(approver.kind)}. Asked because: ${decision.reason}`,
      denialMessage: approver.denialMessage?.(request) ?? USER_DENIED_MESSAGE,
      ...approval,
    };
  }
  if (answer === 'allow-always' && request.canAlwaysAllow) {
    remembered?.setAlwaysAllowed(call.serverName, call.originalToolName, true);
  }
  if (request.canAlwaysAllow && answer === 'allow-tool-for-run') {
    options.runApprovals?.allowTool(call.serverName, call.originalToolName);
  }
  if (request.canAlwaysAllow && answer === 'allow-server-for-run') options.runApprovals?.allowServer(call.serverName);
  const how =
    answer === 'allow-always'
      ? 'Always allowed'
      : answer === 'allow-tool-for-run'
        ? 'Allowed for this run (this tool)'
        : answer === 'allow-server-for-run'
          ? `Allowed for this run (every tool of server ${call.serverName})`
          : 'Allowed';
  return {
    allowed: true,
    reason: `${how} by ${describeApprover(approver.kind)}. Asked because: ${decision.reason}`,
    ...approval,
  };
}

/**
 * Tool definitions are immutable once listed (a change arrives as a new object), so each definition is scanned
 * once per list of other servers' names instead of on every call.
 */
const hiddenContentCache = new WeakMap<object, WeakMap<readonly string[], HiddenContentFlag[]>>();

function findHiddenContentInToolCached(tool: PinnableTool, otherNames: readonly string[]): HiddenContentFlag[] {
  let byNames = hiddenContentCache.get(tool);
  if (!byNames) {
    byNames = new WeakMap();
    hiddenContentCache.set(tool, byNames);
  }
  let flags = byNames.get(otherNames);
  if (!flags) {
    flags = findHiddenContentInTool(tool, otherNames);
    byNames.set(otherNames, flags);
  }
  return flags;
}

function describeApprover(kind: string): string {
  if (kind === 'yes') return '--yes';
  if (kind === 'terminal') return 'the user at the terminal';
  if (kind === 'headless') return 'headless mode (no one to ask)';
  return `the ${kind} approver`;
}
