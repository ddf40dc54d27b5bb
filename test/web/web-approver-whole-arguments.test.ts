/**
 * A tool call's question says its arguments were cut exactly when its view cuts them, and the approver gives them
 * whole on request while the question waits, escaped as the view escapes them (an invisible character as its
 * escape), so the page can show all that the call sends without sending it on every approvals event.
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

async function asked(text: string): Promise<{ question: PendingApproval; whole: string | undefined; after: unknown }> {
  let pending: PendingApproval[] = [];
  const approver = createWebApprover((now) => {
    pending = now;
  });
  const answered = approver.approveToolCall(callWith(text));
  await expect.poll(() => pending.length).toBe(1);
  const question = pending[0]!;
  const whole = approver.wholeArguments(question.id);
  approver.close();
  expect(await answered).toBe('deny');
  return { question, whole, after: approver.wholeArguments(question.id) };
}

describe('the web approver and arguments the view cuts', () => {
  it('says they were cut and gives them whole, escaped, on request while the question waits', async () => {
    const long = `${'x'.repeat(MAX_SHOWN_ARGUMENTS)}middle\u202emarker${'y'.repeat(MAX_SHOWN_ARGUMENTS)}`;
    const cut = await asked(long);
    expect(cut.question.view).not.toContain('middle');
    expect(cut.question.argumentsCut).toBe(true);
    expect(JSON.stringify(cut.question)).not.toContain('marker');
    expect(cut.whole).toBe(formatWholeArguments({ text: long }));
    expect(cut.whole).toContain('middle\\u202emarker');
    expect(cut.whole).not.toContain('\u202e');
    expect(cut.after).toBeUndefined();

    const short = await asked('short');
    expect(short.question.view).toContain('short');
    expect(short.question.argumentsCut).toBeUndefined();
    expect(short.whole).toBeUndefined();
  });
});
