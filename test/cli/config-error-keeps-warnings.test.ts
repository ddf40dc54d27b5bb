/**
 * A config that stops on an error still shows the warnings read before it: a misspelt key is often the reason the
 * file is not what its author meant, and was lost behind the error.
 */
import { describe, expect, it } from 'vitest';
import { runCli, writeConfig } from '../helpers/project.js';

describe('a config with an error after a misspelt key', () => {
  it('prints the warning, then the error, and exits 2', async () => {
    const config = await writeConfig({ modle: 'x', mcpServers: { c: { command: 'node', timeoutMs: 'soon' } } });
    const result = await runCli(['tools', 'list', '--config', config], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `mcp-host: ${config}: modle: not a setting mcp-host uses; ignored (did you mean "model"?)\n` +
        `mcp-host: ${config}: mcpServers.c.timeoutMs: expected a positive whole number of milliseconds, found the string "soon".\n`,
    );
  }, 120_000);
});
