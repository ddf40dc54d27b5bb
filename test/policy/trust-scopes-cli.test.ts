/**
 * `mcp-host trust` looks at the approvals of the config it is given, exactly where a run of that config keeps
 * them: two projects whose configs both name `fs` (with different folders) share one state folder without
 * undoing each other's approvals. The command line runs in this process (the CLI consent tests start it for real)
 * and starts real stdio servers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTrustCommand } from '../../src/cli/commands/trust.js';
import { loadServersAndTools } from '../../src/cli/load-servers-and-tools.js';
import { serverIdentity } from '../../src/policy/server-identity.js';
import { fingerprintDefinition } from '../../src/policy/tool-definition.js';
import type { TrustReportServer } from '../../src/policy/trust-report.js';
import { freshStateDir, type ToolSpec, toolSetServerEntry, toolSetServerPath } from '../consent/consent-helpers.js';
import { stdioServer } from '../helpers/configs.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCommandInProcess } from '../helpers/in-process-command.js';
import { writeConfig } from '../helpers/project.js';

/** Each listing starts a server; on a busy machine this needs minutes. */
const CLI_TEST_TIMEOUT_MS = 240_000;

const tools: ToolSpec[] = [
  { name: 'read_file', description: 'Reads a file.', annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: 'write_file', description: 'Writes a file.', annotations: { destructiveHint: true, openWorldHint: false } },
];

async function projects() {
  const configA = await writeConfig({ mcpServers: { fs: toolSetServerEntry(tools, { args: ['--root', 'a'] }) } });
  const configB = await writeConfig({ mcpServers: { fs: toolSetServerEntry(tools, { args: ['--root', 'b'] }) } });
  const stateDir = freshStateDir();
  const trust = (...args: string[]) =>
    runCommandInProcess(
      (output) => createTrustCommand({ loadServersAndTools, ...output, env: { MCP_HOST_STATE_DIR: stateDir } }),
      args,
    );
  const report = async (config: string): Promise<TrustReportServer | undefined> => {
    const result = await trust('list', '--offline', '--json', '--config', config);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as TrustReportServer[]).find((server) => server.name === 'fs');
  };
  const toolNames = async (config: string) => {
    const result = await runCliInProcess(['tools', 'list', '--json', '--config', config], {
      stateDir,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    return {
      names: (JSON.parse(result.stdout) as Array<{ name: string }>).map((tool) => tool.name).sort(),
      stderr: result.stderr,
    };
  };
  return { configA, configB, stateDir, trust, report, toolNames };
}

describe('mcp-host trust with two projects in one state folder', () => {
  it(
    'sees the approvals a run of the same --config made, and changes only those',
    async () => {
      const { configA, configB, stateDir, trust, report, toolNames } = await projects();

      // A run of project A approves its fs on first sight; `trust` sees that for A only.
      expect((await toolNames(configA)).names).toEqual(['fs__read_file', 'fs__write_file']);
      expect(await report(configA)).toMatchObject({ status: 'known', approvedBy: 'first-sight' });
      expect((await report(configB))?.status).toBe('new');

      // Project B's fs runs on another folder: new there, not "changed", so nothing is withheld in either.
      const b = await toolNames(configB);
      expect(b.names).toEqual(['fs__read_file', 'fs__write_file']);
      expect(b.stderr).not.toContain('different command line');
      expect((await toolNames(configA)).names).toEqual(['fs__read_file', 'fs__write_file']);

      // Revoking from the command line for project A withholds the tool in A's runs only.
      const revoked = await trust('revoke', 'fs', 'read_file', '--config', configA);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toContain('Revoked fs tool read_file');
      const afterRevoke = await toolNames(configA);
      expect(afterRevoke.names).toEqual(['fs__write_file']);
      expect(afterRevoke.stderr).toContain('mcp-host trust approve fs read_file');
      expect((await toolNames(configB)).names).toEqual(['fs__read_file', 'fs__write_file']);
      expect((await report(configB))?.tools.find((tool) => tool.name === 'read_file')?.storedState).toBe('approved');

      // Approving it again for A brings it back there.
      const approved = await trust('approve', 'fs', 'read_file', '--config', configA);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain('Approved tool fs__read_file (was revoked)');
      expect((await toolNames(configA)).names).toEqual(['fs__read_file', 'fs__write_file']);

      const saved = JSON.parse(readFileSync(join(stateDir, 'trust.json'), 'utf8'));
      expect(Object.keys(saved.scopes).sort()).toEqual([configA, configB].sort());
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'honours a trust store written before scopes for the project whose server it matches',
    async () => {
      const { configA, configB, stateDir, report, toolNames } = await projects();
      // Project A's fs as a store written then knew it: a hash of its command line only.
      const serverA = stdioServer('fs', [toolSetServerPath, '--root', 'a']);
      const readFile = { name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object' } };
      writeFileSync(
        join(stateDir, 'trust.json'),
        JSON.stringify({
          version: 1,
          servers: {
            fs: {
              state: 'approved',
              identity: serverIdentity(serverA).previousHash,
              approvedAt: '2025-01-01T00:00:00.000Z',
              approvedBy: 'user',
              tools: {
                read_file: {
                  state: 'revoked',
                  fingerprint: fingerprintDefinition(readFile),
                  definition: readFile,
                  approvedAt: '2025-01-01T00:00:00.000Z',
                  approvedBy: 'user',
                },
              },
              alwaysAllowed: [],
            },
          },
        }),
      );

      expect(await report(configA)).toMatchObject({ status: 'known', approvedBy: 'user' });
      // B's fs runs something else: the old approval is not B's, so B's fs is simply new (and listed once).
      const b = await report(configB);
      expect(b).toMatchObject({ status: 'new' });
      expect(b?.approvedBy).toBeUndefined();
      // A run of A honours the old revocation (the tool stays withheld).
      expect((await toolNames(configA)).names).toEqual([]);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
