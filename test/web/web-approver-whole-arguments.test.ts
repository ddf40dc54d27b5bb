/**
 * A tool call's question carries its arguments whole exactly when its view cuts them, escaped as the view escapes
 * them (an invisible character as its escape), so the page can show all that the call sends.
 */
import { describe, expect, it } from 'vitest';
import { formatWholeArguments, MAX_SHOWN_ARGUMENTS } from '../../src/policy/approval-view.js';
import type { ToolApprovalRequest } from '../../src/policy/approver.js';
import type { PendingApproval } from '../../src/web/api-types.js';
import { createWebApprover } from '../../src/web/web-approver.js';

function callWith(text: string): ToolApprovalRequest {
  return {
    serverName: 'srv',
    toolName: 'srv__echo',
    originalToolName: 'echo',
    arguments: { text },
    trust: 'untrusted',
    reason: 'an ask rule',
    warnings: [],
    hiddenContent: [],
    canAlwaysAllow: false,
  };
}

async function asked(text: string): Promise<PendingApproval> {
  let pending: PendingApproval[] = [];
  const approver = createWebApprover((now) => {
    pending = now;
  });
  const answered = approver.approveToolCall(callWith(text));
  await expect.poll(() => pending.length).toBe(1);
  const question = pending[0]!;
  approver.close();
  expect(await answered).toBe('deny');
  return question;
}

describe('the web approver and arguments the view cuts', () => {
  it('sends them whole, escaped, only when the view cuts them', async () => {
    const long = `${'x'.repeat(MAX_SHOWN_ARGUMENTS)}middle\u202emarker${'y'.repeat(MAX_SHOWN_ARGUMENTS)}`;
    const cut = await asked(long);
    expect(cut.view).not.toContain('middle');
    expect(cut.wholeArguments).toBe(formatWholeArguments({ text: long }));
    expect(cut.wholeArguments).toContain('middle\\u202emarker');
    expect(cut.wholeArguments).not.toContain('\u202e');

    const short = await asked('short');
    expect(short.view).toContain('short');
    expect(short.wholeArguments).toBeUndefined();
  });
});
