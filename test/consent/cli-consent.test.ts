/**
 * Consent, trust and audit through the real CLI (the built `mcp-host`): `run --yes`, headless runs, `tools call`,
 * `audit` with its filters, `trust` / `trust approve` / `trust revoke`, a changed launch command, and a host
 * killed with SIGKILL in the middle of a run. Needs `npm run build` first. Runs that test the process (a terminal
 * or none, exit codes, a kill) are real processes, and each command keeps one real run; what a command decides is
 * checked with the same command line run in this process (each `mcp-host` start costs a second). Servers are stdio processes where their launch command or process matters, and otherwise served over
 * Streamable HTTP from this process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createAuditCommand } from '../../src/cli/commands/audit.js';
import { createTrustCommand } from '../../src/cli/commands/trust.js';
import { loadServersAndTools } from '../../src/cli/load-servers-and-tools.js';
import { headlessDenialMessage } from '../../src/policy/headless-approver.js';
import type { TrustReportServer } from '../../src/policy/trust-report.js';
import { YES_MODE_NOTICE } from '../../src/policy/yes-approver.js';
import type { ScriptTurn } from '../../src/testing/script-types.js';
import { auditRecords } from '../helpers/audit-records.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCommandInProcess } from '../helpers/in-process-command.js';
import { cliPath, isAlive, runCli, temporaryDirectory } from '../helpers/project.js';
import { freshStateDir, recordsOfType, type ToolSpec, toolSetServerEntry } from './consent-helpers.js';
import { type HttpFixtures, startHttpFixtures } from './http-fixtures.js';

/** Each CLI run starts Node and a server; on a busy machine a test of many runs needs minutes. */
const CLI_TEST_TIMEOUT_MS = 240_000;

const fileTools: ToolSpec[] = [
  { name: 'read_file', description: 'Reads a file.', annotations: { readOnlyHint: true, openWorldHint: false } },
  // openWorldHint unset: the run warns that it may reach outside systems.
  { name: 'write_file', description: 'Writes a file.', annotations: { destructiveHint: true } },
];

// Where the server's process or launch command is not what a test is about, the CLI connects over Streamable HTTP
// to a server this process serves, instead of starting one of its own.
let servers: HttpFixtures;
beforeAll(async () => {
  servers = await startHttpFixtures();
});
afterAll(() => servers.close());

/** A config entry for a tool set served over Streamable HTTP by this process. */
function servedEntry(name: string, tools: ToolSpec[]): Record<string, unknown> {
  return { url: servers.toolSet(name, tools).url };
}

interface Project {
  directory: string;
  config: string;
  script: string;
  stateDir: string;
}

/** A folder with a config, a script for the scripted model and a state folder of its own. */
async function project(
  servers: Record<string, unknown>,
  turns: ScriptTurn[] = [{ text: 'nothing to do' }],
  extra: Record<string, unknown> = {},
): Promise<Project> {
  const directory = await temporaryDirectory('mcp-host-consent-cli-');
  const config = join(directory, 'mcp-host.json');
  const script = join(directory, 'script.json');
  await writeFile(config, JSON.stringify({ mcpServers: servers, ...extra }, null, 2));
  await writeFile(script, JSON.stringify({ scenarios: [{ turns }] }));
  return { directory, config, script, stateDir: freshStateDir() };
}

/** Names the config: a config found by discovery would wait for `mcp-host trust config` (not what these test). */
function cli(where: Project, args: string[]) {
  return runCli([...args, '--config', where.config], {
    cwd: where.directory,
    stateDir: where.stateDir,
    timeoutMs: 60_000,
  });
}

/** The same command line as {@link cli}, run in this process: for what a command decides, not for the process. */
function cliInProcess(where: Project, args: string[]) {
  return runCliInProcess([...args, '--config', where.config], {
    cwd: where.directory,
    stateDir: where.stateDir,
    timeoutMs: 60_000,
  });
}

/** `mcp-host audit ARGS` in this process, as the CLI would run it in the project's folder. */
function auditInProcess(where: Project, args: string[]) {
  return runCommandInProcess(
    (output) => createAuditCommand({ ...output, env: { MCP_HOST_STATE_DIR: where.stateDir }, cwd: where.directory }),
    [...args, '--config', where.config],
  );
}

/** `mcp-host trust ARGS` in this process; listing tools starts the configured servers for real. */
function trustInProcess(where: Project, args: string[]) {
  return runCommandInProcess(
    (output) =>
      createTrustCommand({
        loadServersAndTools,
        ...output,
        env: { MCP_HOST_STATE_DIR: where.stateDir },
        cwd: where.directory,
      }),
    [...args, '--config', where.config],
  );
}

function auditOf(where: Project): Promise<AuditRecord[]> {
  return auditRecords<AuditRecord>(where.stateDir);
}

function jsonLines(text: string): AuditRecord[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditRecord);
}

describe('mcp-host run', () => {
  it(
    '--yes approves the call, says so on stderr, warns about open-world tools, and is audited as by yes',
    async () => {
      const where = await project({ fs: toolSetServerEntry(fileTools, { label: 'fs' }) }, [
        { toolCalls: [{ id: 'w1', name: 'fs__write_file', arguments: { path: 'a.txt', content: 'hello' } }] },
        { text: 'Result: {{lastToolResult}}' },
      ]);
      const result = await cli(where, ['run', '--yes', '--json', '--model', `scripted:${where.script}`, 'write a.txt']);
      expect(result.stderr).not.toContain('the run failed');
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(YES_MODE_NOTICE);
      expect(result.stderr).toContain('--yes: allowing fs__write_file without asking');
      // Printed even in --json mode, where stdout is for the transcript.
      expect(result.stderr).toContain('fs__write_file may reach systems outside this machine');
      const transcript = JSON.parse(result.stdout) as { text: string; toolCalls: Array<{ outcome: string }> };
      expect(transcript.toolCalls).toEqual([expect.objectContaining({ callId: 'w1', outcome: 'ok' })]);
      expect(transcript.text).toBe('Result: fs/write_file {"path":"a.txt","content":"hello"}');

      const records = await auditOf(where);
      expect(recordsOfType(records, 'tool-call')).toEqual([
        expect.objectContaining({
          callId: 'w1',
          decision: 'allow',
          policy: 'ask',
          decidedBy: 'approver',
          approver: 'yes',
          outcome: 'ok',
        }),
      ]);
      expect(recordsOfType(records, 'tool-call')[0]!.reason).toMatch(/^Allowed by --yes\. Asked because: /);
      expect(recordsOfType(records, 'approval')).toEqual([
        expect.objectContaining({ callId: 'w1', tool: 'fs__write_file', answer: 'allow-once', approver: 'yes' }),
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'without a terminal or --yes, the call is denied with how to allow it and the run goes on',
    async () => {
      const where = await project({ fs: servedEntry('fs', fileTools) }, [
        { toolCalls: [{ id: 'w1', name: 'fs__write_file', arguments: { path: 'a.txt' } }] },
        { text: 'Result: {{lastToolResult}}' },
      ]);
      const result = await cli(where, ['run', '--model', `scripted:${where.script}`, 'write a.txt']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Result: ${headlessDenialMessage('fs__write_file')}`);
      expect(recordsOfType(await auditOf(where), 'tool-call')[0]).toMatchObject({
        decision: 'deny',
        approver: 'headless',
        outcome: 'denied',
      });
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('mcp-host tools call', () => {
  it(
    'is not prompted for (the user asked for it), still obeys deny rules, and is audited',
    async () => {
      const where = await project({ fs: servedEntry('fs', fileTools) }, undefined, {
        permissions: { deny: ['fs__read_*'] },
      });
      const written = await cli(where, ['tools', 'call', 'fs__write_file', 'path=a.txt', 'content=hi']);
      expect(written.code).toBe(0);
      expect(written.stdout.trim()).toBe('fs/write_file {"path":"a.txt","content":"hi"}');

      const read = await cliInProcess(where, ['tools', 'call', 'fs__read_file', 'path=a.txt']);
      expect(read.code).toBe(1);
      expect(read.stderr).toContain('Denied by rule fs__read_*.');
      expect(read.stderr).toContain('the call was denied');

      const audit = await auditInProcess(where, ['--json', '--tool', 'fs__*']);
      expect(audit.code).toBe(0);
      const calls = jsonLines(audit.stdout);
      expect(
        calls.map((record) => record.type === 'tool-call' && [record.tool, record.decidedBy, record.outcome]),
      ).toEqual([
        ['fs__write_file', 'direct-call', 'ok'],
        ['fs__read_file', 'rule', 'denied'],
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('mcp-host audit', () => {
  it(
    'reads the log back with --since, --server, --tool and --json',
    async () => {
      const where = await project(
        {
          fs: servedEntry('fs', fileTools),
          web: servedEntry('web', [{ name: 'fetch', description: 'Fetches.', annotations: { openWorldHint: true } }]),
        },
        undefined,
        { permissions: { allow: ['fs__*', 'web__*'] } },
      );
      expect((await cliInProcess(where, ['tools', 'call', 'fs__read_file', 'path=one'])).code).toBe(0);
      expect((await cliInProcess(where, ['tools', 'call', 'web__fetch', 'url=http://127.0.0.1/'])).code).toBe(0);
      // Just after the last record of the first two calls: the third call's records all come later.
      const between = new Date(Date.parse((await auditOf(where)).at(-1)!.time) + 1).toISOString();
      expect((await cliInProcess(where, ['tools', 'call', 'fs__write_file', 'path=two'])).code).toBe(0);

      const all = await auditInProcess(where, ['--json']);
      expect(all.code).toBe(0);
      const records = jsonLines(all.stdout);
      // The same records as the file, in order.
      expect(records).toEqual(await auditOf(where));
      expect(recordsOfType(records, 'tool-call').map((record) => record.tool)).toEqual([
        'fs__read_file',
        'web__fetch',
        'fs__write_file',
      ]);
      expect(new Set(records.map((record) => record.type))).toEqual(
        new Set(['server-start', 'trust-change', 'tool-call', 'server-exit']),
      );

      const web = jsonLines((await auditInProcess(where, ['--json', '--server', 'web'])).stdout);
      expect(web.length).toBeGreaterThan(0);
      expect(web.every((record) => 'server' in record && record.server === 'web')).toBe(true);

      const writes = jsonLines((await auditInProcess(where, ['--json', '--tool', 'fs__write_*'])).stdout);
      expect(writes.map((record) => record.type === 'tool-call' && record.tool)).toEqual(['fs__write_file']);

      const recent = jsonLines((await auditInProcess(where, ['--json', '--since', between])).stdout);
      expect(recordsOfType(recent, 'tool-call').map((record) => record.tool)).toEqual(['fs__write_file']);
      expect(recent.every((record) => record.time >= between)).toBe(true);
      const lastHour = jsonLines((await auditInProcess(where, ['--json', '--since', '1h'])).stdout);
      expect(lastHour).toHaveLength(records.length);

      const none = await auditInProcess(where, ['--since', '2999-01-01']);
      expect(none.code).toBe(0);
      expect(none.stdout).toBe('');
      expect(none.stderr).toContain('No records match.');

      const table = await auditInProcess(where, ['--tool', 'web__*']);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/web__fetch/);
      expect(table.stdout).not.toMatch(/fs__read_file/);

      const bad = await auditInProcess(where, ['--since', 'yesterday-ish']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--since expects a duration');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('mcp-host trust', () => {
  it(
    'lists, revokes and approves tools and servers, and runs respect it',
    async () => {
      const where = await project({ fs: servedEntry('fs', fileTools) });
      const listTools = async () => {
        const result = await cliInProcess(where, ['tools', 'list']);
        expect(result.code).toBe(0);
        return {
          names: result.stdout.split('\n').flatMap((line) => line.split(/\s+/)[0] || []),
          stderr: result.stderr,
        };
      };
      expect((await listTools()).names).toEqual(['fs__read_file', 'fs__write_file']);

      const listed = await trustInProcess(where, ['list', '--json']);
      expect(listed.code).toBe(0);
      const report = JSON.parse(listed.stdout) as TrustReportServer[];
      expect(report).toEqual([
        expect.objectContaining({ name: 'fs', status: 'known', trust: 'untrusted', approvedBy: 'first-sight' }),
      ]);
      expect(report[0]!.tools.map((tool) => [tool.name, tool.availability])).toEqual([
        ['read_file', 'available'],
        ['write_file', 'available'],
      ]);

      // Revoke one tool: a run no longer offers it, and says how to bring it back.
      const revoked = await trustInProcess(where, ['revoke', 'fs', 'fs__write_file']);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain('Revoked fs tool write_file');
      let now = await listTools();
      expect(now.names).toEqual(['fs__read_file']);
      expect(now.stderr).toContain('tool fs__write_file was revoked');
      expect(now.stderr).toContain('mcp-host trust approve fs write_file');
      const text = (await trustInProcess(where, [])).stdout;
      expect(text).toMatch(/fs__write_file\s+WITHHELD \(revoked\)/);

      const approved = await trustInProcess(where, ['approve', 'fs', 'write_file']);
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain('Approved tool fs__write_file (was revoked).');
      expect((await listTools()).names).toEqual(['fs__read_file', 'fs__write_file']);

      // Revoke the whole server, then approve it again.
      expect((await trustInProcess(where, ['revoke', 'fs'])).stdout).toContain('Revoked server fs');
      now = await listTools();
      expect(now.names).toEqual([]);
      expect(now.stderr).toContain('server fs was revoked');
      const again = await trustInProcess(where, ['approve', 'fs']);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Approved server fs (was revoked).');
      expect((await listTools()).names).toEqual(['fs__read_file', 'fs__write_file']);

      const unknown = await trustInProcess(where, ['revoke', 'nope']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('not in the trust store');

      const changes = recordsOfType(await auditOf(where), 'trust-change').filter(
        (record) => record.by === 'command-line',
      );
      expect(changes.map((record) => [record.change, record.tool])).toEqual([
        ['tool-revoked', 'write_file'],
        ['tool-approved', 'write_file'],
        ['server-revoked', undefined],
        ['server-approved', undefined],
        ['tool-approved', 'read_file'],
        ['tool-approved', 'write_file'],
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'a changed launch command withholds the server’s tools until `trust approve NAME`',
    async () => {
      const where = await project({ fs: toolSetServerEntry(fileTools, { args: ['--root', 'project-a'] }) });
      const first = await cliInProcess(where, ['tools', 'list']);
      expect(first.stdout).toContain('fs__write_file');

      // Same state folder, same name, different arguments.
      await writeFile(
        where.config,
        JSON.stringify({ mcpServers: { fs: toolSetServerEntry(fileTools, { args: ['--root', '/'] }) } }),
      );
      const changed = await cli(where, ['tools', 'list']);
      expect(changed.code).toBe(0);
      expect(changed.stdout).toBe('');
      expect(changed.stderr).toContain('server fs now runs a different command line or URL than the one approved');
      expect(changed.stderr).toContain('mcp-host trust approve fs');
      expect((await cli(where, ['trust'])).stdout).toContain('fs (CHANGED command line or URL');

      // A run is not offered the tools either.
      await writeFile(
        where.script,
        JSON.stringify({
          scenarios: [
            { turns: [{ toolCalls: [{ name: 'fs__read_file', arguments: {} }] }, { text: '{{lastToolResult}}' }] },
          ],
        }),
      );
      const run = await cliInProcess(where, ['run', '--yes', '--model', `scripted:${where.script}`, 'read']);
      expect(run.stdout).toContain('Unknown tool "fs__read_file"');

      const approved = await trustInProcess(where, ['approve', 'fs']);
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain('Approved server fs (was changed).');
      const restored = await cliInProcess(where, ['tools', 'list']);
      expect(restored.stdout).toContain('fs__read_file');
      expect(restored.stdout).toContain('fs__write_file');
      expect(restored.stderr).not.toContain('different command line');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('a host killed in the middle of a run', () => {
  let host: ChildProcess | undefined;
  let serverPidFile: string | undefined;
  afterEach(() => {
    if (host?.pid !== undefined && host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    if (serverPidFile !== undefined && existsSync(serverPidFile)) {
      const pid = Number(readFileSync(serverPidFile, 'utf8'));
      if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    host = undefined;
    serverPidFile = undefined;
  });

  it(
    'leaves an audit file whose complete lines all parse, and `mcp-host audit --json` reads it',
    async () => {
      const turns: ScriptTurn[] = Array.from({ length: 60 }, (_, index) => ({
        toolCalls: [
          { id: `step_${index}_a`, name: 'w__step', arguments: { n: index, password: 'hunter2-hunter2' } },
          { id: `step_${index}_b`, name: 'w__step', arguments: { n: index } },
        ],
      }));
      const directory = await temporaryDirectory('mcp-host-consent-kill-');
      serverPidFile = join(directory, 'server.pid');
      const where = await project(
        { w: toolSetServerEntry([{ name: 'step', delayMs: 40 }], { env: { PID_FILE: serverPidFile } }) },
        [...turns, { text: 'finished' }],
        { permissions: { allow: ['w__step'] } },
      );
      const auditFile = join(where.stateDir, 'audit.jsonl');
      const child = spawn(
        process.execPath,
        [cliPath, 'run', '--config', where.config, '--model', `scripted:${where.script}`, 'go'],
        {
          cwd: where.directory,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MCP_HOST_STATE_DIR: where.stateDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      host = child;
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );

      // Wait until several calls are on record, then kill the host without warning.
      const deadline = Date.now() + 30_000;
      const callsOnRecord = () =>
        existsSync(auditFile) ? readFileSync(auditFile, 'utf8').split('"type":"tool-call"').length - 1 : 0;
      while (callsOnRecord() < 6) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the run did not get going:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      const text = readFileSync(auditFile, 'utf8');
      // Whole lines end with a newline; what follows the last one (if anything) is a torn line the reader skips.
      const complete = text.split('\n').slice(0, -1);
      const parsed = complete.map((line) => JSON.parse(line) as AuditRecord);
      const calls = recordsOfType(parsed, 'tool-call');
      expect(calls.length).toBeGreaterThanOrEqual(6);
      // The run was cut short: far fewer than its 120 calls.
      expect(calls.length).toBeLessThan(120);
      expect(text).not.toContain('hunter2-hunter2');

      const read = await runCli(['audit', '--json'], { stateDir: where.stateDir });
      expect(read.code).toBe(0);
      const records = jsonLines(read.stdout);
      expect(records).toEqual(parsed);
      // The host could not close its server: no `closed` exit is on record.
      expect(recordsOfType(records, 'server-exit')).toEqual([]);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
