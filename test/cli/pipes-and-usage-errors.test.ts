/** Usage errors as people meet them (one `mcp-host:` line, exit 2, no stack trace), and output into pipes. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleServer, runCli, writeConfig } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.

/** A stack trace line as Node prints it. */
const STACK_LINE = /^\s+at /m;

async function calculatorConfig(): Promise<string> {
  return writeConfig({
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
  });
}

describe('usage errors', () => {
  it.each([
    [['run', '--max-turns', '0', 'hi'], '--max-turns'],
    [['tools', 'list', '--timeout', 'x'], '--timeout'],
    [['mock-llm', '--port', 'x'], '--port'],
    [['run', '--no-such-flag', 'x'], '--no-such-flag'],
    [['no-such-command'], 'no-such-command'],
  ])(
    '%j exits 2 with one line naming %s',
    async (args, named) => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^mcp-host: /);
      expect(lines[0]).toContain(named);
      expect(result.stderr).not.toMatch(STACK_LINE);
    },
    60_000,
  );

  it('names a corrupted trust store in one line and exits 2; MCP_HOST_DEBUG=1 adds the stack', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'mcp-host-state-'));
    await writeFile(join(stateDir, 'trust.json'), '{ not json');
    const config = await calculatorConfig();
    const result = await runCli(['tools', 'list', '--config', config], { stateDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp-host: Trust store .*trust\.json is not valid JSON.*delete it to start over/);

    const debug = await runCli(['tools', 'list', '--config', config], { stateDir, env: { MCP_HOST_DEBUG: '1' } });
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(STACK_LINE);
  }, 120_000);
});
