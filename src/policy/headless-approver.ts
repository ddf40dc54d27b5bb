/**
 * The approver for runs with no one to ask (no terminal, a script, CI): every call that needs asking is denied,
 * with a message telling the user how to allow it, and every withheld tool definition stays withheld. Nothing ever
 * runs silently because no one was there to object.
 */

import type { Approver, ToolApprovalRequest } from './approver.js';

export function headlessDenialMessage(toolName: string, askedByRule = false): string {
  // An `ask` rule beats an `allow` rule, so adding one would not help: say what would.
  const rule = askedByRule
    ? 'a rule in permissions.ask asks for it, so remove that rule or pass --yes'
    : `add a rule to permissions.allow in the config (e.g. "${toolName}") or pass --yes`;
  return `${toolName} needs approval and no one can approve it here: ${rule}.`;
}

export function createHeadlessApprover(): Approver {
  return {
    kind: 'headless',
    approveToolCall: async () => 'deny',
    approveToolDefinition: async () => 'reject',
    approveServer: async () => 'reject',
    // `canAlwaysAllow` is false exactly when a rule asked (a rule's question cannot be silenced by a remembered answer).
    denialMessage: (request: ToolApprovalRequest) => headlessDenialMessage(request.toolName, !request.canAlwaysAllow),
  };
}
