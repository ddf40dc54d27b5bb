/** `tools list` shows the first line of a description that has text, however the server starts it. */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.

describe('tools list descriptions', () => {
  it('shows the first non-empty line, trimmed', async () => {
    const config = await writeConfig({
      mcpServers: { files: { command: process.execPath, args: [fixtureServer('indented-descriptions.mjs')] } },
    });
    const result = await runCliInProcess(['tools', 'list', '--config', config], { timeoutMs: 90_000 });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain('files__read_file  Read the contents of a file.');
    expect(lines).toContain('files__list_folder  List the folder.');
    expect(lines).toHaveLength(2);
  }, 120_000);
});
