/**
 * `tools call` of a withheld tool tells the person at the command line what is withheld and the command that
 * approves it, in words written for them: the sentence written for a model ("until the user approves it") is not
 * theirs.
 */
import { describe, expect, it } from 'vitest';
import { calculatorCli } from '../helpers/calculator-config.js';

describe('tools call of a withheld tool', () => {
  it('names what is withheld and the approve command, for the person, and exits 1', async () => {
    const { config, run } = await calculatorCli('mcp-host-withheld-call-');
    const approved = await run(['trust', 'approve', 'calculator', '--config', config]);
    expect(approved.code, approved.stderr).toBe(0);

    const revokeTool = await run(['trust', 'revoke', 'calculator', 'add_numbers', '--config', config]);
    expect(revokeTool.code, revokeTool.stderr).toBe(0);
    const call = ['tools', 'call', 'calculator__add_numbers', 'a=1', 'b=2', '--config', config];
    const tool = await run(call);
    expect(tool.code).toBe(1);
    expect(tool.stdout).toBe('');
    expect(tool.stderr).not.toContain('the user');
    expect(tool.stderr).toContain(
      `mcp-host: calculator__add_numbers is withheld because you revoked it; approve it with: mcp-host trust approve calculator add_numbers --config ${config}\n`,
    );

    const revokeServer = await run(['trust', 'revoke', 'calculator', '--config', config]);
    expect(revokeServer.code, revokeServer.stderr).toBe(0);
    const server = await run(call);
    expect(server.code).toBe(1);
    expect(server.stderr).not.toContain('the user');
    expect(server.stderr).toContain(
      `mcp-host: calculator__add_numbers is withheld because you revoked the server calculator; approve it with: mcp-host trust approve calculator --config ${config}\n`,
    );
  }, 180_000);
});
