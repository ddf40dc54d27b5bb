/**
 * The terminal chat numbers a turn's parallel calls in the order the model made them, as a resumed chat and the web
 * UI number the transcript's calls: the model's first call is [1] even when its line comes after the second's, and
 * `/expand N` shows the call the [N] line named, live and after `chat --resume`. Real processes in pipe mode, the
 * scripted model and the counter fixture, whose `sleep` answers after the milliseconds it is given.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { callLines, counterChat, expanded, sessionId } from './counter-chat.js';

const project = counterChat('mcp-host-parallel-numbers-', {
  scenarios: [
    {
      match: 'Sleep twice',
      turns: [
        {
          // The first call sleeps long enough for the second to end well before it.
          toolCalls: [
            { name: 'counter__sleep', arguments: { ms: 3000 } },
            { name: 'counter__sleep', arguments: { ms: 0 } },
          ],
        },
        { text: 'Both slept.' },
      ],
    },
  ],
});

/** The `ms` argument `/expand N` shows for call N. */
function expandedMs(stdout: string, number: number): number | undefined {
  const ms = /"ms": (\d+)/.exec(expanded(stdout, number));
  return ms === null ? undefined : Number(ms[1]);
}

describe('chat numbering of parallel calls', () => {
  it('numbers calls in the order the model made them, and /expand N shows the [N] line’s call, live and resumed', async () => {
    const live = await project.chat('Sleep twice\n/expand 1\n/expand 2\n');
    expect(live.code, live.stderr).toBe(EXIT_OK);
    expect(live.stdout).toContain('Both slept.');
    // The second call ended first, so its line came first; each keeps the number of its place in the model's answer.
    expect(callLines(live.stdout)).toEqual([
      { number: 2, ms: 0 },
      { number: 1, ms: 3000 },
    ]);
    expect(expandedMs(live.stdout, 1)).toBe(3000);
    expect(expandedMs(live.stdout, 2)).toBe(0);

    const resumed = await project.chat('/expand 1\n/expand 2\n', { resume: sessionId(live.stdout) });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    expect(expandedMs(resumed.stdout, 1)).toBe(3000);
    expect(expandedMs(resumed.stdout, 2)).toBe(0);
  }, 60_000);
});
