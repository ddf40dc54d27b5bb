/**
 * The real CLI: a cut result is stored for the session that cut it and deleted when that session closes; what a
 * killed session left behind is deleted by the next one, while the folder of a session still running is kept.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory } from '../helpers/project.js';

/** Every file under `directory`, as paths relative to it. */
function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1));
}

describe('stored cut results belong to their session', () => {
  it('deletes the stored text on close, and what dead sessions left, but not a live session’s folder', async () => {
    const directory = await temporaryDirectory();
    const stateDir = join(directory, 'state');
    const results = join(stateDir, 'results');
    // Left behind: a file from before session folders, and the folder of a host process that is gone.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const legacy = `res_${'a'.repeat(24)}.txt`;
    mkdirSync(join(results, `${gone}-dead`), { recursive: true, mode: 0o700 });
    writeFileSync(join(results, legacy), 'old');
    writeFileSync(join(results, `${gone}-dead`, `res_${'b'.repeat(24)}.txt`), 'old');
    // A session of a host that still runs (this test's process).
    mkdirSync(join(results, `${process.pid}-alive`));
    writeFileSync(join(results, `${process.pid}-alive`, `res_${'c'.repeat(24)}.txt`), 'in use');

    const config = join(directory, 'mcp-host.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { counter: { command: process.execPath, args: [fixtureServerPath('counter')] } },
        permissions: { allow: ['counter__*'] },
        maxResultTokens: 200,
      }),
    );
    const text = 'many words here '.repeat(2_000);
    const result = await runCliInProcess(['tools', 'call', 'counter__echo', `text=${text}`, '--config', config], {
      cwd: directory,
      stateDir,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    // The text was cut and stored under an id while the session ran (the user sees the server's whole text; the
    // audit says what the budget did)…
    expect(result.stdout).toContain(text.trim());
    const audit = readFileSync(join(stateDir, 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"tool":"counter__echo"[^\n]*"truncated":true/);
    // …and nothing of it is left now; neither is what the dead session left. The live one's folder stays.
    expect(filesUnder(results)).toEqual([join(`${process.pid}-alive`, `res_${'c'.repeat(24)}.txt`)]);
  }, 90_000);
});
