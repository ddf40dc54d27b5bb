/**
 * `mcp-host serve` started in a folder whose config is not approved yet (as a client that starts it without
 * `--config` does) starts none of its servers: it says so on stderr, with the command that approves it, instead of
 * serving an empty catalog without a word; asked for one of that config's profiles, it gives the same reason rather
 * than "no profile is named …". Stdout still carries only the protocol.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleServer, runCli, temporaryDirectory } from '../helpers/project.js';

const initialize = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
})}\n`;

async function unapprovedProject(): Promise<string> {
  const folder = await temporaryDirectory('mcp-host-gateway-unapproved-');
  await writeFile(
    join(folder, 'mcp-host.json'),
    JSON.stringify({
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
      profiles: { maths: { servers: ['calculator'] } },
    }),
  );
  return folder;
}

describe('mcp-host serve in a folder whose config is not approved', () => {
  it('says on stderr that its servers were not started and how to approve it', async () => {
    const folder = await unapprovedProject();
    const result = await runCli(['serve'], { cwd: folder, input: initialize, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ id: 1, result: { serverInfo: { name: 'mcp-host-gateway' } } });
    expect(result.stderr).toContain('is not approved yet, so its servers were not started');
    expect(result.stderr).toContain('mcp-host trust config');
  }, 60_000);

  it('gives that reason, not an unknown profile, for serve --profile', async () => {
    const folder = await unapprovedProject();
    const result = await runCli(['serve', '--profile', 'maths'], { cwd: folder, timeoutMs: 60_000 });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('is not approved yet');
    expect(result.stderr).not.toContain('no profile is named');
  }, 60_000);
});
