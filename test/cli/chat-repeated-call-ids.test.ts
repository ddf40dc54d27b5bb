/**
 * A model that gives its calls the same id at every turn (local OpenAI-compatible servers send `call_0` each time):
 * `/expand 1` shows the first turn's call with the first turn's result, live and after `chat --resume`, not the
 * result a later call with the same id got. Real processes in pipe mode, the scripted model and the counter fixture.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { counterChat, expanded, sessionId, sleepTurn } from './counter-chat.js';

const project = counterChat('mcp-host-repeated-ids-', {
  scenarios: [
    { match: '^First', turns: sleepTurn(11, 'call_0') },
    { match: '^Second', turns: sleepTurn(22, 'call_0') },
  ],
});

describe('chat with call ids a model repeats across turns', () => {
  it('shows each turn’s call with its own result, live and resumed', async () => {
    const live = await project.chat('First, sleep.\nSecond, sleep.\n/expand 1\n/expand 2\n');
    expect(live.code, live.stderr).toBe(EXIT_OK);
    expect(live.stdout).toContain('Slept 22.');
    expect(expanded(live.stdout, 1)).toContain('slept 11 ms');
    expect(expanded(live.stdout, 2)).toContain('slept 22 ms');

    const resumed = await project.chat('/expand 1\n/expand 2\n', { resume: sessionId(live.stdout) });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    const first = expanded(resumed.stdout, 1);
    expect(first).toContain('"ms": 11');
    expect(first).toContain('slept 11 ms');
    expect(first).not.toContain('slept 22 ms');
    const second = expanded(resumed.stdout, 2);
    expect(second).toContain('"ms": 22');
    expect(second).toContain('slept 22 ms');
  }, 60_000);
});
