/** `run` reads its prompt from standard input: `run -`, or a pipe with no prompt argument. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot } from '../helpers/project.js';

const config = join(repoRoot, 'examples', 'mcp-host.json');

describe('run with the prompt on standard input', () => {
  it('takes it from a pipe with "-" and with no prompt at all', async () => {
    const dash = await runCliInProcess(['run', '--config', config, '-'], {
      input: 'What is 5 plus 7?\n',
      timeoutMs: 90_000,
    });
    expect(dash.stdout).toContain('12');
    expect(dash.code).toBe(0);
    const bare = await runCliInProcess(['run', '--config', config], { input: 'What is 5 plus 7?', timeoutMs: 90_000 });
    expect(bare.stdout).toContain('12');
    expect(bare.code).toBe(0);
  }, 200_000);

  it('refuses an empty prompt on standard input as a usage error', async () => {
    const empty = await runCliInProcess(['run', '--config', config, '-'], { input: '  \n', timeoutMs: 90_000 });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('mcp-host: the prompt on standard input is empty');
  }, 100_000);
});
