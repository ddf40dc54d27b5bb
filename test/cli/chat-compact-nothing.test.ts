/**
 * `/compact` in a chat whose only turn is the newest, which compaction always keeps, says there was nothing to
 * compact, where it said it had compacted from and to the same count.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleServer, repoRoot, runCli, writeConfig } from '../helpers/project.js';

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
});
