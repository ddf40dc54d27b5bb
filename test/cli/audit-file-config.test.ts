/** A config's `auditFile` is the log every command uses: runs write it, `audit` reads it, `trust` records to it. */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';

describe("the config's auditFile", () => {
  it('is read by audit and written by trust, with --config or found in the current folder', async () => {
    const folder = await temporaryDirectory('mcp-host-audit-file-');
    const config = join(folder, 'mcp-host.json');
    await writeFile(
      config,
      JSON.stringify({
        auditFile: 'logs/project-audit.jsonl',
        mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
      }),
    );
    const stateDir = await temporaryDirectory('mcp-host-state-');
    const log = join(dirname(config), 'logs', 'project-audit.jsonl');

    const called = await runCliInProcess(['tools', 'call', 'counter__echo', 'text=hello', '--config', config], {
      stateDir,
      timeoutMs: 60_000,
    });
    expect(called.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('"tool":"counter__echo"');

    const withFlag = await runCliInProcess(['audit', '--json', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(withFlag.stdout).toContain('counter__echo');
    // A config found in the folder is used once its content is approved.
    expect((await runCliInProcess(['trust', 'config'], { stateDir, cwd: folder, timeoutMs: 60_000 })).code).toBe(0);
    const fromFolder = await runCliInProcess(['audit', '--json'], { stateDir, cwd: folder, timeoutMs: 60_000 });
    expect(fromFolder.stdout).toContain('counter__echo');

    const revoked = await runCliInProcess(['trust', 'revoke', 'counter', '--config', config], {
      stateDir,
      timeoutMs: 60_000,
    });
    expect(revoked.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('"type":"trust-change"');
    // The default log holds at most the approval of the config itself (made before its auditFile applied).
    const fallback = join(stateDir, 'audit.jsonl');
    expect(existsSync(fallback) ? readFileSync(fallback, 'utf8') : '').not.toContain('counter');
  }, 240_000);
});
