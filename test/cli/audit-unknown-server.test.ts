/**
 * `mcp-host audit --server NAME` for a name no record of the log has says so, with the server it was probably meant
 * to be: "No records match." alone reads as if that server had done nothing.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.
const TIMEOUT = { timeoutMs: 60_000 };

describe('audit --server with a name the log does not have', () => {
  it('says the log names no such server and suggests the close one; a server the log has but not since is as it was', async () => {
    const config = await calculatorConfig();
    const stateDir = join(await temporaryDirectory('mcp-host-audit-server-'), 'state');
    const options = { ...TIMEOUT, env: { MCP_HOST_STATE_DIR: stateDir } };
    const called = await runCli(
      ['tools', 'call', 'calculator__add_numbers', 'a=1', 'b=2', '--config', config],
      options,
    );
    expect(called.code, called.stderr).toBe(0);

    const misspelt = await runCli(['audit', '--server', 'calcultor'], options);
    expect(misspelt.code, misspelt.stderr).toBe(0);
    expect(misspelt.stdout).toBe('');
    expect(misspelt.stderr).toBe(
      'No records match: no record names a server "calcultor" (did you mean "calculator"?).\n',
    );

    const later = await runCli(['audit', '--server', 'calculator', '--since', '2999-01-01'], options);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).toBe('No records match.\n');
  }, 120_000);
});
