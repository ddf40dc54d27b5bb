/** What a helper started and never handed back is ended once its test file is done. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { killLeftRunning, trackUntilExit } from '../helpers/left-running.js';

describe('processes left running by a helper', () => {
  it('are killed by pid, and one that already exited is let go', async () => {
    const left = spawn('sleep', ['60'], { stdio: 'ignore' });
    const done = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    trackUntilExit(left);
    trackUntilExit(done);
    await once(done, 'exit');
    const exited = once(left, 'exit');
    killLeftRunning();
    const [code, signal] = await exited;
    expect(code).toBeNull();
    expect(signal).toBe('SIGKILL');
  });
});
