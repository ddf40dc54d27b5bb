/**
 * `mcp-host trust config` shows every rule the file it approves sets, so approving is not blind: the ask and deny
 * rules as well as the allow rules.
 */
import { describe, expect, it } from 'vitest';
import { runCli, writeConfig } from '../helpers/project.js';

describe('trust config', () => {
  it('lists the allow, ask and deny rules of the file it approves', async () => {
    const config = await writeConfig({
      mcpServers: { files: { command: 'files-server' } },
      permissions: { allow: ['files__read_*'], ask: ['files__write_*'], deny: ['files__delete_*'] },
    });
    const approved = await runCli(['trust', 'config', config], { timeoutMs: 60_000 });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(
      'It configures:\n  files: files-server\n  allow rule: files__read_*\n  ask rule: files__write_*\n  deny rule: files__delete_*\n',
    );
  }, 120_000);
});
