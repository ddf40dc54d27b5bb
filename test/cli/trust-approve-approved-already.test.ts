/**
 * `mcp-host trust approve` of what is approved already says so: it changes nothing, and without a line a person could
 * not tell that from a command that did nothing at all.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.
const TIMEOUT = { timeoutMs: 60_000 };

describe('trust approve of what is approved already', () => {
  it('says the server and its tools, or the tool, are approved already, and exits 0', async () => {
    const config = await calculatorConfig();
    const stateDir = join(await temporaryDirectory('mcp-host-approved-already-'), 'state');
    const options = { ...TIMEOUT, env: { MCP_HOST_STATE_DIR: stateDir } };

    const first = await runCli(['trust', 'approve', 'calculator', '--config', config], options);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Approved server calculator (was new).\n');

    const again = await runCli(['trust', 'approve', 'calculator', '--config', config], options);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Server calculator and its 4 tools are approved already: nothing to approve.\n');

    const tool = await runCli(['trust', 'approve', 'calculator', 'add_numbers', '--config', config], options);
    expect(tool.code, tool.stderr).toBe(0);
    expect(tool.stdout).toBe('Tool calculator__add_numbers is approved already: nothing to approve.\n');
  }, 120_000);
});
