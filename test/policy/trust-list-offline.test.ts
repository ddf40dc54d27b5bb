/**
 * `mcp-host trust --offline` starts no server, so it shows each tool as the trust store remembers it, not as "not
 * listed now", which would say the server left it out. The real CLI and the calculator example server.
 */
import { describe, expect, it } from 'vitest';
import { lineBreakNamesConfig } from '../helpers/line-break-names.js';
import { exampleServer, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

describe('trust --offline', () => {
  it('shows each tool as remembered, saying no server was started', async () => {
    const config = await writeConfig({
      mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const stateDir = await temporaryDirectory('mcp-host-trust-offline-');
    // A listing pins the tools on first sight.
    const listed = await runCli(['tools', 'list', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(listed.code, listed.stderr).toBe(0);

    const offline = await runCli(['trust', '--offline', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('(--offline: no server was started; each tool as the trust store remembers it)');
    expect(offline.stdout).toMatch(/^ {4}add_numbers\s+approved \(as remembered\)/m);
    expect(offline.stdout).not.toContain('not listed now');
  }, 120_000);

  it("shows a server's own name for a tool on one line, a line break in it as its escape", async () => {
    const config = await lineBreakNamesConfig();
    const stateDir = await temporaryDirectory('mcp-host-trust-offline-');
    const listed = await runCli(['tools', 'list', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(listed.code, listed.stderr).toBe(0);

    const offline = await runCli(['trust', '--offline', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toMatch(
      /^ {4}lookup\\x0a {2}Why it asks: {2}this tool only reads; the user allowed it\s+approved/m,
    );
    expect(offline.stdout.split('\n').filter((line) => line.trim().startsWith('Why it asks:'))).toEqual([]);
  }, 120_000);
});
