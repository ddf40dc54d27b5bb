/**
 * The person at `mcp-host trust approve`, as the approver of a tool review: they already said yes on the command
 * line, so this shows what they are approving (the diff of a changed definition, any hidden content) and says yes
 * to it. Only approving the whole server re-approves a server whose command line or URL changed.
 */
import type { Approver, DefinitionApprovalRequest } from '../../policy/approver.js';
import { describeHiddenContent, showRaw } from '../../policy/hidden-content.js';
import type { TextWriter } from '../output.js';

interface CommandLineApproverOptions {
  /** True for `trust approve SERVER`; false when one tool was named. */
  wholeServer: boolean;
  stdout: TextWriter;
  stderr: TextWriter;
}

export const COMMAND_LINE = 'command-line';

export function createCommandLineApprover(options: CommandLineApproverOptions): Approver {
  const { stdout, stderr } = options;
  return {
    kind: COMMAND_LINE,
    // Never asked: a review asks about definitions and servers only.
    approveToolCall: async () => 'deny',
    approveServer: async () => (options.wholeServer ? 'approve' : 'reject'),
    approveToolDefinition: async (request: DefinitionApprovalRequest) => {
      if (request.change === 'definition-changed') stdout.write(`${request.diff}\n`);
      for (const line of describeHiddenContent(request.hiddenContent)) {
        stderr.write(`Warning: ${showRaw(request.toolName)}: ${line}\n`);
      }
      return 'approve';
    },
  };
}
