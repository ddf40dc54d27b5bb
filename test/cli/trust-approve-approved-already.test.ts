/**
 * `mcp-host trust approve` of what is approved already says so: it changes nothing, and without a line a person could
 * not tell that from a command that did nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { calculatorCli } from '../helpers/calculator-config.js';

describe('trust approve of what is approved already', () => {
  it('says the server and its tools, or the tool, are approved already, and exits 0', async () => {
    const { config, run } = await calculatorCli('mcp-host-approved-already-');

    const first = await run(['trust', 'approve', 'calculator', '--config', config]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Approved server calculator (was new).\n');

    const again = await run(['trust', 'approve', 'calculator', '--config', config]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Server calculator and its 4 tools are approved already: nothing to approve.\n');

    const tool = await run(['trust', 'approve', 'calculator', 'add_numbers', '--config', config]);
    expect(tool.code, tool.stderr).toBe(0);
    expect(tool.stdout).toBe('Tool calculator__add_numbers is approved already: nothing to approve.\n');
  }, 120_000);
});
