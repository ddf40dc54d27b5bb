/**
 * A `tools call` the host could not complete (here, a server that never answers) says how it failed once: the host's
 * own text already says the call failed and why, and a closing line after it said the same again.
 */
import { describe, expect, it } from 'vitest';
import { fixtureServer, runCli, trustedServer, writeConfig } from '../helpers/project.js';

describe('tools call that times out', () => {
  it('says it timed out once, and exits 1', async () => {
    const config = await writeConfig({ mcpServers: { hang: trustedServer(fixtureServer('hang.mjs')) } });
    const result = await runCli(['tools', 'call', 'hang__hang', '--timeout', '1000', '--config', config], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    const told = result.stderr.split('\n').filter((line) => /time(d)? ?out/.test(line));
    expect(told).toEqual([
      'The tool call failed: the tool did not answer within its timeout of 1000 ms; the server was sent notifications/cancelled',
    ]);
  }, 120_000);
});
