/** The headless denial tells the user what would actually allow the call. */
import { describe, expect, it } from 'vitest';
import { authorizeToolCall } from '../../src/policy/authorize-tool-call.js';
import { createHeadlessApprover } from '../../src/policy/headless-approver.js';

const call = {
  toolName: 'inventory__reserve',
  serverName: 'inventory',
  originalToolName: 'reserve',
  arguments: { sku: 'WIDGET-1', quantity: 2 },
  tool: { name: 'reserve', inputSchema: { type: 'object' } },
};

describe('headless denial message', () => {
  it('suggests an allow rule when the tool asks by default', async () => {
    const result = await authorizeToolCall({
      call,
      trust: 'untrusted',
      rules: { allow: [], ask: [], deny: [] },
      approver: createHeadlessApprover(),
    });
    expect(result.allowed).toBe(false);
    expect(result.denialMessage).toContain('add a rule to permissions.allow');
  });

  it('says to remove the ask rule (an allow rule would not beat it) when a rule asked', async () => {
    const result = await authorizeToolCall({
      call,
      trust: 'untrusted',
      rules: { allow: ['inventory__*'], ask: ['inventory__reserve'], deny: [] },
      approver: createHeadlessApprover(),
    });
    expect(result.allowed).toBe(false);
    expect(result.denialMessage).toContain('a rule in permissions.ask asks for it');
    expect(result.denialMessage).toContain('--yes');
  });
});
