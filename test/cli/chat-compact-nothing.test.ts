/**
 * `/compact` in a chat whose only turn is the newest, which compaction always keeps, says there was nothing to
 * compact, where it said it had compacted from and to the same count; one that did compact says so, whatever the
 * counts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleServer, repoRoot, runCli, writeConfig, writeScriptedConfig } from '../helpers/project.js';

describe('chat /compact with nothing older than the newest turn', () => {
  it('says there is nothing to compact', async () => {
    const config = await writeConfig({
      model: `scripted:${join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json')}`,
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    });
    const result = await runCli(['chat', '--config', config], {
      input: 'What is 5 plus 7?\n/compact\n',
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('5 plus 7 is 12.');
    expect(result.stdout).toMatch(/^nothing to compact: about \d+ tokens, all in the turns kept as they are$/m);
    expect(result.stdout).not.toContain('compacted:');
  }, 60_000);

  it('says it compacted when the summary costs what the turns it replaced did', async () => {
    const config = await writeScriptedConfig(
      'mcp-host-compact-even-',
      { fallbackText: 'Noted.', scenarios: [{ match: '^Summarise the conversation', turns: [{ text: 'Notes.' }] }] },
      // Small enough that /compact keeps only the long second turn.
      { contextTokens: 2000, mcpServers: {} },
    );
    // A first turn of each length in turn: the estimate counts four characters a token, so one of every four lengths
    // costs what the summary does, and a step of three meets one.
    for (let length = 90; length <= 150; length += 3) {
      const result = await runCli(['chat', '--config', config], {
        input: `${'n'.repeat(length)}\nSecond ${'x'.repeat(2400)}\n/compact\n`,
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect({ length, said: /^(?:compacted|nothing to compact).*$/m.exec(result.stdout)?.[0] }).toEqual({
        length,
        said: expect.stringMatching(/^compacted: about \d+ → \d+ tokens$/),
      });
    }
  }, 120_000);
});
