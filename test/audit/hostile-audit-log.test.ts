/**
 * `mcp-host audit` (the built CLI) reading a log someone else wrote into: lines of the wrong shape, nested too deep,
 * longer than any record, and a log that is a named pipe or a link to /dev/zero. Each is passed over or refused at
 * once; the records around them are still shown.
 */
import { appendFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_AUDIT_LINE_BYTES } from '../../src/audit/audit-line-splitter.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../../src/cli/exit-codes.js';
import { runCli } from '../helpers/project.js';

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'mcp-host-hostile-audit-'));
  file = path.join(directory, 'audit.jsonl');
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const base = { time: '2026-01-01T00:00:00.000Z', runId: 'r1' };
const approval = (tool: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    ...base,
    type: 'approval',
    server: 'fs',
    tool,
    answer: 'deny',
    approver: 'terminal',
    reason: 'asked',
    ...fields,
  });

const audit = (...args: string[]) => runCli(['audit', '--audit-file', file, ...args], { stateDir: directory });

describe('mcp-host audit on a log written by someone else', () => {
  it('passes over lines whose fields are of another kind or that nest too deep, and shows the records around them', async () => {
    const forged = [
      // A number where the table trims text ended the whole command.
      JSON.stringify({ ...base, type: 'server-exit', server: 'fs', reason: 'crashed', stderrTail: 5 }),
      JSON.stringify({ ...base, type: 'tool-call' }),
      approval('fs__x', { server: { name: 'fs' } }),
      JSON.stringify({ ...base, type: ['approval'], server: 'fs', tool: 't', answer: 'a', approver: 'b', reason: 'c' }),
      JSON.stringify({
        ...base,
        type: 'tool-call',
        server: 'fs',
        tool: 't',
        originalTool: 't',
        decision: 'allow',
        policy: 'allow',
        decidedBy: 'rule',
        reason: 'r',
        outcome: 'ok',
        resultBytes: '12',
      }),
      // Parsed, it overflowed the stack of `--json`'s printing.
      `{"arguments":${'['.repeat(100_000)}${']'.repeat(100_000)},${approval('deep').slice(1)}`,
    ];
    writeFileSync(file, `${[approval('first'), ...forged, approval('last')].join('\n')}\n`);
    const [table, json] = await Promise.all([audit(), audit('--json')]);
    for (const result of [table, json]) {
      expect(result.stderr).toContain(`skipped ${forged.length} line(s) of ${file} that were not whole records.`);
      expect(result.code).toBe(EXIT_OK);
    }
    expect(table.stdout).toMatch(/approval +fs +first/);
    expect(table.stdout).toMatch(/approval +fs +last/);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).tool),
    ).toEqual(['first', 'last']);
  });

  it('passes over a line longer than any record without holding it, in linear time', async () => {
    const long = `{"type":"approval","reason":"${'x'.repeat(MAX_AUDIT_LINE_BYTES)}"}`;
    writeFileSync(file, `${approval('first')}\n`);
    appendFileSync(file, `${long}\n${approval('last')}\n`);
    // Joined with each 64 KiB read, a 30 MB line took half a minute; this one is twice that.
    const result = await runCli(['audit', '--audit-file', file, '--json'], { stateDir: directory, timeoutMs: 20_000 });
    expect(result.code).toBe(EXIT_OK);
    expect(result.stderr).toContain(
      `skipped 1 line(s) of ${file} that were not whole records, 1 of them longer than ${MAX_AUDIT_LINE_BYTES} bytes.`,
    );
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).tool),
    ).toEqual(['first', 'last']);
  });

  it('refuses a log that is a named pipe or a link to a device, where it waited for a writer or read forever', async () => {
    const { execFileSync } = await import('node:child_process');
    const pipe = path.join(directory, 'pipe.jsonl');
    execFileSync('mkfifo', [pipe]);
    symlinkSync('/dev/zero', file);
    const [fromPipe, fromDevice] = await Promise.all([
      runCli(['audit', '--audit-file', pipe], { stateDir: directory, timeoutMs: 15_000 }),
      runCli(['audit', '--audit-file', file, '--follow'], { stateDir: directory, timeoutMs: 15_000 }),
    ]);
    expect(fromPipe.code).toBe(EXIT_RUN_FAILED);
    expect(fromPipe.stderr).toContain(
      `could not read the audit log ${pipe}: it is a device, pipe or socket, not a file.`,
    );
    expect(fromDevice.code).toBe(EXIT_RUN_FAILED);
    expect(fromDevice.stderr).toContain(
      `could not read the audit log ${file}: it is a device, pipe or socket, not a file.`,
    );
  });
});
