/**
 * `mcp-host trust approve SERVER TOOL` with a tool the server does not list is a usage error (exit 2), as an
 * unknown tool is for `tools call`, naming the close names the server does list. The real CLI and the calculator
 * example server.
 */
import { describe, expect, it } from 'vitest';
import { exampleServer, runCli, writeConfig } from '../helpers/project.js';

describe('trust approve with a tool the server does not list', () => {
  it('exits 2 naming the tool, the server and the close names it lists', async () => {
    const config = await writeConfig({
      mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const typo = await runCli(['trust', 'approve', 'calc', 'add_nmbers', '--config', config], { timeoutMs: 60_000 });
    expect(typo.code, typo.stderr).toBe(2);
    expect(typo.stderr).toContain(
      'mcp-host: cannot approve add_nmbers: calc does not list a tool named "add_nmbers" (did you mean add_numbers?)',
    );

    const unlike = await runCli(['trust', 'approve', 'calc', 'zzz', '--config', config], { timeoutMs: 60_000 });
    expect(unlike.code, unlike.stderr).toBe(2);
    expect(unlike.stderr).toContain('calc does not list a tool named "zzz"; `mcp-host trust` shows its tools');
  }, 120_000);
});
