/**
 * `--yes`: the user approves in advance every tool call that no deny rule forbids, and says so on the command
 * line. Each such approval is reported (for stderr) and audited as made by `--yes`, so the log tells an
 * unattended approval from a person's.
 *
 * It does NOT approve new or changed tool definitions, nor a server whose command line changed, unless
 * `approveDefinitions` is set: `--yes` is meant for unattended runs, which are exactly where a rug pull would
 * otherwise go unseen. Withheld tools stay withheld with a message naming `mcp-host trust approve`.
 */

import type { Approver, ToolApprovalRequest } from './approver.js';

/** Print once at start-up when `--yes` is given. */
export const YES_MODE_NOTICE =
  '--yes: every tool call not denied by a rule runs without asking (each one is audited as approved by --yes). New or changed tool definitions stay withheld until approved with `mcp-host trust approve`.';

interface YesApproverOptions {
  /** Called for each call approved this way, with a line for stderr. */
  onNotice?: (message: string) => void;
  /** Also approve new or changed tool definitions and changed servers. Default false. */
  approveDefinitions?: boolean;
}

export function createYesApprover(options: YesApproverOptions = {}): Approver {
  const definitionAnswer = options.approveDefinitions === true ? 'approve' : 'reject';
  return {
    kind: 'yes',
    approveToolCall: async (request: ToolApprovalRequest) => {
      options.onNotice?.(`--yes: allowing ${request.toolName} without asking (${request.reason})`);
      return 'allow-once';
    },
    approveToolDefinition: async () => definitionAnswer,
    approveServer: async () => definitionAnswer,
  };
}
