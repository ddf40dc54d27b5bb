import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { type Command, CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCallRecord } from '../../src/audit/audit-record.js';
import { createJsonlAuditLog } from '../../src/audit/jsonl-audit-log.js';
import { createAuditCommand, parseSince } from '../../src/cli/commands/audit.js';
import { waitUntil } from '../helpers/wait-until.js';

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'mcp-host-audit-cli-'));
  file = path.join(directory, 'audit.jsonl');
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const NOW = new Date('2025-03-01T12:00:00.000Z');

function call(overrides: Partial<ToolCallRecord>): ToolCallRecord {
  return {
    type: 'tool-call',
    time: '2025-03-01T11:50:00.000Z',
    runId: 'r1',
    server: 'fs',
    tool: 'fs__read_file',
    originalTool: 'read_file',
    arguments: {},
    decision: 'allow',
    policy: 'allow',
    decidedBy: 'annotation',
    reason: 'read-only on a trusted server',
    durationMs: 12,
    outcome: 'ok',
    resultBytes: 2048,
    truncated: true,
    ...overrides,
  };
}

function writeLog(): void {
  const log = createJsonlAuditLog(file);
  log.write(call({ time: '2025-03-01T09:00:00.000Z', tool: 'fs__old', originalTool: 'old' }));
  log.write(call({}));
  log.write(
    call({
      tool: 'web__fetch',
      server: 'web',
      originalTool: 'fetch',
      decision: 'deny',
      policy: 'deny',
      decidedBy: 'rule',
      rule: 'web__*',
      reason: 'Denied by rule "web__*" in permissions.deny.',
      outcome: 'denied',
      durationMs: undefined,
      resultBytes: undefined,
      truncated: undefined,
    }),
  );
  log.write({
    type: 'server-exit',
    time: '2025-03-01T11:55:00.000Z',
    runId: 'r1',
    server: 'web',
    reason: 'crashed',
    exitCode: 1,
    stderrTail: 'boom\n\u001b[31mpanic',
  });
  log.close();
}

/** Starts the command; `output()` reads its stdout so far, `done` is its result. */
function start(args: string[], signal?: AbortSignal) {
  let out = '';
  const done = run(args, signal, (chunk) => {
    out += chunk;
  });
  return { done, output: () => out };
}

async function run(args: string[], signal?: AbortSignal, onStdout?: (text: string) => void) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    onStdout?.(chunk.toString());
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const command: Command = createAuditCommand({
    stdout,
    stderr,
    env: {},
    now: () => NOW,
    ...(signal ? { signal } : {}),
  });
  command
    .exitOverride()
    .configureOutput({ writeOut: (text) => stdout.write(text), writeErr: (text) => stderr.write(text) });
  let exitCode = 0;
  try {
    await command.parseAsync(['--audit-file', file, ...args], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = error.exitCode;
  }
  return { exitCode, stdout: out, stderr: err, output: () => out };
}

describe('mcp-host audit', () => {
  it('prints a table of every record by default, escaping what servers wrote', async () => {
    writeLog();
    const result = await run([]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+EVENT\s+SERVER\s+TOOL\s+DECISION\s+OUTCOME\s+DETAIL$/);
    expect(lines).toHaveLength(5);
    expect(lines[2]).toMatch(
      /^2025-03-01 11:50:00Z\s+tool-call\s+fs\s+fs__read_file\s+allowed by annotation\s+ok 12ms 2\.0KB cut\s+read-only/,
    );
    expect(lines[3]).toMatch(/web__fetch\s+denied by rule web__\*\s+denied\s+Denied by rule/);
    expect(lines[4]).toMatch(/server-exit\s+web\s+crashed\s+exit 1\s+stderr: \\x1b\[31mpanic$/);
  });

  it('shows the error of a call refused before it was decided on once, and an error beside its reason with both', async () => {
    const log = createJsonlAuditLog(file);
    const refused = 'The arguments are nested deeper than 128 levels.';
    log.write(call({ decision: 'deny', decidedBy: 'default', reason: refused, error: refused, outcome: 'error' }));
    log.write(call({ outcome: 'error', error: 'server "fs" crashed' }));
    log.close();
    const lines = (await run([])).stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/denied by default\s+error .*\s{2}The arguments are nested deeper than 128 levels\.$/);
    expect(lines[1]).not.toContain(' — ');
    expect(lines[2]).toMatch(/server "fs" crashed — read-only on a trusted server$/);
  });

  it('filters by --since (duration or date), --server and --tool, and prints JSON lines with --json', async () => {
    writeLog();
    const recent = await run(['--since', '1h', '--json']);
    const records = recent.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.tool ?? record.type)).toEqual(['fs__read_file', 'web__fetch', 'server-exit']);

    const byDate = await run(['--since', '2025-03-01T11:52:00Z', '--json']);
    expect(
      byDate.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['server-exit']);
    const web = await run(['--server', 'web', '--json']);
    expect(
      web.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['tool-call', 'server-exit']);
    const tool = await run(['--tool', 'fs__*', '--json']);
    expect(
      tool.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).tool),
    ).toEqual(['fs__old', 'fs__read_file']);
  });

  it('says when a torn last line was skipped', async () => {
    writeLog();
    appendFileSync(file, '{"type":"tool-call","ti');
    const result = await run(['--json']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(4);
    expect(result.stderr).toMatch(/mcp-host: skipped 1 line\(s\) .* cut short by a host that stopped mid-write/);
  });

  it('exits 2 on a usage error and 0 with a note when there is no log yet', async () => {
    const missing = await run([]);
    expect(missing.exitCode).toBe(0);
    expect(missing.stderr).toMatch(/mcp-host: no audit log at .*audit\.jsonl yet/);
    const badSince = await run(['--since', 'yesterday']);
    expect(badSince.exitCode).toBe(2);
    expect(badSince.stderr).toMatch(/--since expects a duration such as 30m/);
    const unknown = await run(['--bogus']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--bogus'/);
  });

  it('--follow prints new records until stopped', async () => {
    writeLog();
    const controller = new AbortController();
    const running = start(['--follow', '--json', '--server', 'fs'], controller.signal);
    // The records already there are printed first: after them, the command is following the file.
    await waitUntil(() => running.output().split('\n').length > 2, 'the records already in the log');
    const log = createJsonlAuditLog(file);
    // Another server's record first: once the one after it is printed, it has been read and left out.
    log.write(call({ callId: 'live-2', server: 'other' }));
    log.write(call({ callId: 'live-1' }));
    log.close();
    await waitUntil(() => running.output().includes('live-1'), 'the record written while following');
    controller.abort();
    const result = await running.done;
    expect(result.exitCode).toBe(0);
    const ids = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).callId ?? null);
    expect(ids).toEqual([null, null, 'live-1']);
  });

  it('parses --since forms', () => {
    expect(parseSince('90s', NOW)?.toISOString()).toBe('2025-03-01T11:58:30.000Z');
    expect(parseSince('2d', NOW)?.toISOString()).toBe('2025-02-27T12:00:00.000Z');
    expect(parseSince('1w', NOW)?.toISOString()).toBe('2025-02-22T12:00:00.000Z');
    expect(parseSince('2025-01-31', NOW)?.toISOString()).toBe('2025-01-31T00:00:00.000Z');
    expect(parseSince('soon', NOW)).toBeUndefined();
    expect(parseSince('2025-13-45', NOW)).toBeUndefined();
  });
});
