/** The wait `mcp-host mock-llm` runs until: the first signal ends it and leaves no handler behind for either. */
import { describe, expect, it } from 'vitest';
import { untilSignal } from '../../src/cli/until-signal.js';

// Signals nothing else in a test worker handles, so delivering one reaches only the wait under test.
const SIGNALS: NodeJS.Signals[] = ['SIGUSR2', 'SIGWINCH'];
const listenerCounts = () => SIGNALS.map((signal) => process.listenerCount(signal));

describe('untilSignal', () => {
  it('resolves with the first signal delivered and removes the handlers of every signal it waited for', async () => {
    const before = listenerCounts();
    const waiting = untilSignal(SIGNALS);
    expect(listenerCounts()).toEqual(before.map((count) => count + 1));
    process.kill(process.pid, 'SIGUSR2');
    expect(await waiting).toBe('SIGUSR2');
    expect(listenerCounts()).toEqual(before);
  });
});
