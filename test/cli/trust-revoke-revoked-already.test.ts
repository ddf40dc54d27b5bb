/**
 * `mcp-host trust revoke` of what is revoked already says there is nothing to revoke, as `trust approve` of what is
 * approved already says there is nothing to approve: "Revoked …" again told of a change that was not made.
 */
import { describe, expect, it } from 'vitest';
import { calculatorCli } from '../helpers/calculator-config.js';

describe('trust revoke of what is revoked already', () => {
  it('says the tool, or the server, is revoked already, and exits 0', async () => {
    const { config, run } = await calculatorCli('mcp-host-revoked-already-');
    const approved = await run(['trust', 'approve', 'calculator', '--config', config]);
    expect(approved.code, approved.stderr).toBe(0);

    const revokeTool = ['trust', 'revoke', 'calculator', 'add_numbers', '--config', config];
    const tool = await run(revokeTool);
    expect(tool.code, tool.stderr).toBe(0);
    expect(tool.stdout).toBe('Revoked calculator tool add_numbers: withheld until you approve it again.\n');
    const toolAgain = await run(revokeTool);
    expect(toolAgain.code, toolAgain.stderr).toBe(0);
    expect(toolAgain.stdout).toBe('Tool add_numbers of calculator is revoked already: nothing to revoke.\n');

    const revokeServer = ['trust', 'revoke', 'calculator', '--config', config];
    const server = await run(revokeServer);
    expect(server.code, server.stderr).toBe(0);
    expect(server.stdout).toBe('Revoked server calculator: its tools are withheld until you approve it again.\n');
    const serverAgain = await run(revokeServer);
    expect(serverAgain.code, serverAgain.stderr).toBe(0);
    expect(serverAgain.stdout).toBe('Server calculator and its tools are revoked already: nothing to revoke.\n');
    // A tool of a revoked server is revoked with it.
    const toolOfRevoked = await run(['trust', 'revoke', 'calculator', 'divide', '--config', config]);
    expect(toolOfRevoked.stdout).toBe('Tool divide of calculator is revoked already: nothing to revoke.\n');
  }, 180_000);
});
