/**
 * A question asked for a call made without a signal waits on the shared signal that never aborts: the prompter adds
 * no listener to it, so none is left behind by a question that never gets its line (the count is not watched on that
 * signal, see never-aborted.ts).
 */
import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NEVER_ABORTED } from '../../src/connections/never-aborted.js';
import { createLinePrompter } from '../../src/policy/line-prompter.js';

const listenersOnNeverAborted = () => getEventListeners(NEVER_ABORTED, 'abort').length;

describe('a line prompter asked with the signal that never aborts', () => {
  it('leaves no listener on it, answered or still waiting', async () => {
    const input = new PassThrough();
    const prompter = createLinePrompter({ input, output: new PassThrough() });
    try {
      for (let index = 0; index < 50; index += 1) {
        const answer = prompter.ask('? ', NEVER_ABORTED);
        expect(listenersOnNeverAborted()).toBe(0);
        input.write(`line ${index}\n`);
        expect(await answer).toBe(`line ${index}`);
      }
      // A question whose line never comes.
      const waiting = prompter.ask('? ', NEVER_ABORTED);
      expect(listenersOnNeverAborted()).toBe(0);
      prompter.close();
      expect(await waiting).toBeUndefined();
      expect(listenersOnNeverAborted()).toBe(0);
    } finally {
      prompter.close();
    }
  });

  it('still listens to a signal that can abort, and lets go of it', async () => {
    const input = new PassThrough();
    const prompter = createLinePrompter({ input, output: new PassThrough() });
    const controller = new AbortController();
    try {
      const answered = prompter.ask('? ', controller.signal);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      input.write('yes\n');
      expect(await answered).toBe('yes');
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      const cancelled = prompter.ask('? ', controller.signal);
      controller.abort(new Error('stopped'));
      await expect(cancelled).rejects.toThrow('stopped');
    } finally {
      prompter.close();
    }
  });
});
