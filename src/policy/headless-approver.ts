/**
 * The approver for runs with no one to ask (no terminal, a script, CI): every call that needs asking is denied,
 * with a message telling the user how to allow it, and every withheld tool definition stays withheld. Nothing ever
 * runs silently because no one was there to object.
 */

import type { Approver, ToolApprovalRequest } from './approver.js';

export function headlessDenialMessage(toolName: string): string {
  return `${toolName} needs approval and no one can approve it here: add a rule to permissions.allow in the config (e.g. "${toolName}") or pass --yes.`;
}

export function createHeadlessApprover(): Approver {
  return {
    kind: 'headless',
    approveToolCall: async () => 'deny',
    approveToolDefinition: async () => 'reject',
    approveServer: async () => 'reject',
    denialMessage: (request: ToolApprovalRequest) => headlessDenialMessage(request.toolName),
  };
}
