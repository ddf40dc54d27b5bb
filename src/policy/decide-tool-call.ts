/**
 * The consent decision for one tool call: allow, ask or deny, and the reason in words, so that the audit log can
 * say why every call ran (or did not) and the approval view can say why it asks.
 *
 * Order, strongest first:
 * 1. user rules: deny, then ask, then allow (`permissions` in the config);
 * 2. "always allow" answers the user gave earlier (`remembered`);
 * 3. annotations, only from a trusted server: `readOnlyHint` → allow; anything else → ask (`destructiveHint`
 *    defaults to true);
 * 4. an untrusted server → ask, even when the tool claims to be read-only.
 * Nothing here runs a call or prompts anyone: see `authorizeToolCall` for that.
 */

import type { PermissionRules, ServerTrust } from '../config/types.js';
import { findMatchingRule } from './permission-rules.js';
import { effectiveAnnotations, isSafeToRetry, type ToolAnnotations } from './tool-annotations.js';

type PolicyAction = 'allow' | 'ask' | 'deny';
/** `skill`: an active skill's `allowed-tools` do not name the tool (see the skills layer). */
export type PolicySource = 'rule' | 'annotation' | 'trust' | 'default' | 'remembered' | 'skill';

export interface PolicyDecision {
  action: PolicyAction;
  /** A sentence for people: the approval view, `--trace`, the audit log. */
  reason: string;
  source: PolicySource;
  /** The pattern that decided, when `source` is `rule`. */
  rule?: string;
  /** Things the user should know even when the call is allowed (e.g. the tool reaches outside systems). */
  warnings: string[];
  /** May the call be sent once more after a timeout? (trusted `idempotentHint` or `readOnlyHint`) */
  safeToRetry: boolean;
}

interface ToolCallPolicyInput {
  /** The namespaced name (`fs__write_file`): what rules are written against. */
  toolName: string;
  serverName: string;
  /** The server's own name for the tool: rules match it too (see rule-names.ts). */
  originalToolName?: string;
  trust: ServerTrust;
  annotations?: ToolAnnotations;
  rules: PermissionRules;
  /** Namespaced names the user answered "always allow" for. */
  alwaysAllowed?: ReadonlySet<string>;
}

export function decideToolCall(input: ToolCallPolicyInput): PolicyDecision {
  const { toolName, serverName, trust, annotations } = input;
  const safeToRetry = isSafeToRetry(annotations, trust);
  const rule = findMatchingRule(input.rules, {
    toolName,
    serverName,
    ...(input.originalToolName === undefined ? {} : { originalToolName: input.originalToolName }),
  });
  if (rule?.list === 'deny') {
    return {
      action: 'deny',
      reason: `Denied by rule "${rule.pattern}" in permissions.deny.`,
      source: 'rule',
      rule: rule.pattern,
      warnings: [],
      safeToRetry,
    };
  }

  const effective = effectiveAnnotations(annotations, trust);
  const warnings: string[] = [];
  // A tool that declares it stays on this machine gets no warning, whatever the server's trust: the warning is
  // information only, and consent for an untrusted server's call does not depend on it.
  if (effective.openWorld && annotations?.openWorldHint !== false) {
    warnings.push(
      effective.fromServer
        ? `${toolName} may reach systems outside this machine (openWorldHint is true or unset).`
        : `${toolName} may reach systems outside this machine: server ${serverName} is untrusted, so nothing it declares rules that out.`,
    );
  }
  const decision = (action: PolicyAction, source: PolicySource, reason: string, pattern?: string): PolicyDecision => ({
    action,
    reason,
    source,
    ...(pattern === undefined ? {} : { rule: pattern }),
    warnings,
    safeToRetry,
  });

  if (rule?.list === 'ask') return decision('ask', 'rule', `Rule "${rule.pattern}" in permissions.ask.`, rule.pattern);
  if (rule?.list === 'allow') {
    return decision('allow', 'rule', `Allowed by rule "${rule.pattern}" in permissions.allow.`, rule.pattern);
  }
  if (input.alwaysAllowed?.has(toolName)) {
    return decision('allow', 'remembered', `You chose to always allow ${toolName}.`);
  }
  if (effective.fromServer) {
    if (effective.readOnly) {
      return decision(
        'allow',
        'annotation',
        `${toolName} is read-only (readOnlyHint) on trusted server ${serverName}.`,
      );
    }
    if (effective.destructive) {
      const stated = annotations?.destructiveHint === true ? 'destructiveHint is true' : 'destructiveHint is unset';
      return decision('ask', 'annotation', `${toolName} may change or delete things (${stated}).`);
    }
    return decision('ask', 'default', `${toolName} changes things, though not destructively (destructiveHint: false).`);
  }
  if (annotations?.readOnlyHint === true) {
    return decision(
      'ask',
      'trust',
      `${toolName} says it is read-only, but server ${serverName} is untrusted, so that claim is not relied on.`,
    );
  }
  return decision('ask', 'trust', `Server ${serverName} is untrusted; its tools ask before every call.`);
}
