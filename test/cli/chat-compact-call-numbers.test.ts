/**
 * After `/compact` replaces earlier turns with a summary, a resumed chat numbers the calls as the live chat did: the
 * calls the summary stands for keep their numbers (and `/expand` says a compaction summarised them, before the resume,
 * so they are not kept), the later ones keep theirs, and a new call follows them. In the live chat, `/expand` still
 * shows a call the compaction summarised, saying so. Real processes in pipe mode, the scripted model (which also writes the summary) and the
 * counter fixture.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { callLines, counterChat, expanded, sessionId, sleepTurn } from './counter-chat.js';

const project = counterChat(
  'mcp-host-compact-numbers-',
  {
    // The summary request matches no scenario: this is the summary.
    fallbackText: 'The user asked for sleeps.',
    scenarios: [
      { match: '^First', turns: sleepTurn(11) },
      { match: '^Second', turns: sleepTurn(22) },
      { match: '^Third', turns: sleepTurn(33) },
      { match: '^Fourth', turns: sleepTurn(44) },
    ],
  },
  // Small enough that /compact keeps only the long second turn, large enough that no turn compacts by itself.
  { contextTokens: 2000 },
);

describe('chat numbering after /compact', () => {
  it('numbers a resumed transcript’s calls as the live chat did after a compaction', async () => {
    const live = await project.chat(
      `First, sleep.\nSecond, sleep. ${'x'.repeat(2400)}\n/compact\n/expand 1\n/expand 2\nThird, sleep.\n`,
    );
    expect(live.code, live.stderr).toBe(EXIT_OK);
    expect(live.stdout).toMatch(/^compacted: about \d+ → \d+ tokens$/m);
    expect(callLines(live.stdout)).toEqual([
      { number: 1, ms: 11 },
      { number: 2, ms: 22 },
      { number: 3, ms: 33 },
    ]);
    // No resume here: the summarised call is still kept, and said to be summarised; the kept turn's is not.
    expect(live.stdout).not.toContain('before the resume');
    expect(expanded(live.stdout, 1)).toContain('slept 11 ms');
    expect(expanded(live.stdout, 1)).toContain('summarised by a compaction: the model has only the summary');
    expect(expanded(live.stdout, 2)).toContain('slept 22 ms');
    expect(expanded(live.stdout, 2)).not.toContain('summarised');

    const resumed = await project.chat('/expand 1\n/expand 2\n/expand 3\nFourth, sleep.\n', {
      resume: sessionId(live.stdout),
    });
    expect(resumed.code, resumed.stderr).toBe(EXIT_OK);
    // The first turn is only in the summary now; its call keeps its number.
    expect(resumed.stdout).toContain(
      'tool call [1] was summarised by a compaction before the resume, so it is not kept: the calls kept are [2] to [3]',
    );
    expect(expanded(resumed.stdout, 2)).toContain('slept 22 ms');
    expect(expanded(resumed.stdout, 3)).toContain('slept 33 ms');
    expect(callLines(resumed.stdout)).toEqual([{ number: 4, ms: 44 }]);
  }, 60_000);
});
