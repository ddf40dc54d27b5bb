/**
 * A question in the web UI, or a wait for a server to say an elicitation's page is done, for a call made without a
 * signal waits on the shared signal that never aborts: neither adds a listener to it, so none is left behind by a
 * question nobody answers (the count is not watched on that signal, see never-aborted.ts). A signal that can abort
 * is still listened to, and let go of.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ElicitationCompletions } from '../../src/client-features/elicitation-completions.js';
import { NEVER_ABORTED } from '../../src/connections/never-aborted.js';
import type { ServerApprovalRequest } from '../../src/policy/approver.js';
import type { PendingApproval } from '../../src/web/api-types.js';
import { createWebApprover } from '../../src/web/web-approver.js';

const listenersOn = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

const request: ServerApprovalRequest = {
  serverName: 'fs',
  trust: 'untrusted',
  change: 'server-changed',
  reason: 'its command changed',
  target: 'node server.js',
  toolNames: [],
};

describe('waits on the signal that never aborts', () => {
  it('a web question adds no listener to it, answered or left waiting, and still listens to one that can abort', async () => {
    let pending: PendingApproval[] = [];
    const approver = createWebApprover((now) => {
      pending = now;
    });
    try {
      const answered = approver.approveServer(request, NEVER_ABORTED);
      const waiting = approver.approveServer(request, NEVER_ABORTED);
      expect(listenersOn(NEVER_ABORTED)).toBe(0);
      approver.answer(pending[0]!.id, { answer: 'approve' });
      expect(await answered).toBe('approve');
      const controller = new AbortController();
      const abortable = approver.approveServer(request, controller.signal);
      expect(listenersOn(controller.signal)).toBe(1);
      controller.abort(new Error('stopped'));
      await expect(abortable).rejects.toThrow('stopped');
      approver.close();
      expect(await waiting).toBe('reject');
      expect(listenersOn(NEVER_ABORTED)).toBe(0);
    } finally {
      approver.close();
    }
  });

  it('an elicitation wait adds no listener to it, and still listens to one that can abort', async () => {
    const completions = new ElicitationCompletions();
    const done = completions.wait('fs', 'e1', 60_000, NEVER_ABORTED);
    expect(listenersOn(NEVER_ABORTED)).toBe(0);
    completions.complete('fs', 'e1');
    expect(await done).toBe('complete');
    const controller = new AbortController();
    const cancelled = completions.wait('fs', 'e2', 60_000, controller.signal);
    expect(listenersOn(controller.signal)).toBe(1);
    controller.abort();
    expect(await cancelled).toBe('cancelled');
    expect(listenersOn(controller.signal)).toBe(0);
  });
});
