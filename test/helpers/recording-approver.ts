/** An approver that answers every tool call the same way and remembers which tools it was asked about. */
import type { Approver } from '../../src/index.js';
import type { ToolApprovalAnswer } from '../../src/policy/approver.js';

export function recordingApprover(answer: ToolApprovalAnswer): { approver: Approver; asked: string[] } {
  const asked: string[] = [];
  const approver: Approver = {
    kind: 'test',
    approveToolCall: async (request) => {
      asked.push(request.toolName);
      return answer;
    },
    approveToolDefinition: async () => 'approve',
    approveServer: async () => 'approve',
  };
  return { approver, asked };
}
