/**
 * `mcp-host audit --server NAME` for a name no record of the log has says so, with the server it was probably meant
 * to be: "No records match." alone reads as if that server had done nothing.
 */
import { describe, expect, it } from 'vitest';
import { calculatorCli } from '../helpers/calculator-config.js';

describe('audit --server with a name the log does not have', () => {
  it('says the log names no such server and suggests the close one; a server the log has but not since is as it was', async () => {
    const { config, run } = await calculatorCli('mcp-host-audit-server-');
    const called = await run(['tools', 'call', 'calculator__add_numbers', 'a=1', 'b=2', '--config', config]);
    expect(called.code, called.stderr).toBe(0);

    const misspelt = await run(['audit', '--server', 'calcultor']);
    expect(misspelt.code, misspelt.stderr).toBe(0);
    expect(misspelt.stdout).toBe('');
    expect(misspelt.stderr).toBe(
      'No records match: no record names a server "calcultor" (did you mean "calculator"?).\n',
    );

    const later = await run(['audit', '--server', 'calculator', '--since', '2999-01-01']);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).toBe('No records match.\n');
  }, 120_000);
});
