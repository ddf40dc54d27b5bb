/**
 * A server's question withdrawn before the web UI takes it (its request cancelled while the host prepared it) holds
 * no place among the few of that server's the UI keeps: however many come so, the server's next question is shown,
 * not declined as if the UI already held too many.
 */
import { describe, expect, it } from 'vitest';
import type { SamplingApprovalRequest } from '../../src/client-features/client-request-approver.js';
import type { PendingApproval } from '../../src/web/api-types.js';
import { createWebApprover } from '../../src/web/web-approver.js';

const request: SamplingApprovalRequest = {
  serverName: 'srv',
  model: 'scripted:test',
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
  maxTokens: 64,
  tools: [],
  notApplied: [],
  modelHints: [],
};

describe('the web UI and a server question withdrawn before it was taken', () => {
  it('keeps no place for it, so the next question is shown and answered', async () => {
    let pending: PendingApproval[] = [];
    const approver = createWebApprover((now) => {
      pending = now;
    });
    try {
      for (let index = 0; index < 20; index += 1) {
        const withdrawn = new AbortController();
        withdrawn.abort(new Error('cancelled by the server'));
        await expect(approver.approveSampling(request, withdrawn.signal)).rejects.toThrow('cancelled by the server');
      }
      const next = approver.approveSampling(request, new AbortController().signal);
      await expect.poll(() => pending.length).toBe(1);
      approver.answer(pending[0]!.id, { answer: 'allow' });
      expect(await next).toBe('allow');
    } finally {
      approver.close();
    }
  });
});
