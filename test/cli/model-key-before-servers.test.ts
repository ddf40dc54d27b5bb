/**
 * `run` checks the model and its key before starting any server: a missing key is a usage error naming the variable,
 * and a scripted model's missing script one naming the path.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.

/** Server starts the host recorded in the audit log of `stateDir`. */
async function serverStarts(stateDir: string): Promise<number> {
  return (await auditRecords(stateDir)).filter((record) => record.type === 'server-start').length;
}

describe('run without the key its model needs', () => {
  it.each([
    ['anthropic:claude-sonnet-4-6', /set ANTHROPIC_API_KEY in the environment/],
    ['openai:gpt-5', /set OPENAI_API_KEY in the environment/],
    ['gemini:gemini-2.5-flash', /set GEMINI_API_KEY \(or GOOGLE_API_KEY\) in the environment/],
    ['openai-compatible:local', /pass --base-url URL .* or set OPENAI_BASE_URL/],
    ['scripted:no-such-script.json', /needs its script, and there is no file at .*no-such-script\.json/],
    ['scripted:.', /needs its script, and \S+ is a folder, not a script file/],
  ])(
    '%s: exits 2 naming what to set, before any server starts',
    async (model, wording) => {
      const config = await calculatorConfig();
      const stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-state-'));
      const result = await runCliInProcess(['run', '--model', model, '--config', config, 'hello'], {
        stateDir,
        timeoutMs: 90_000,
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^mcp-host: the model /);
      expect(lines[0]).toMatch(wording);
      // The library's wording is not the command line's.
      expect(result.stderr).not.toContain('apiKey');
      expect(await serverStarts(stateDir)).toBe(0);
    },
    120_000,
  );
});
