import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecord, ToolCallRecord } from '../../src/audit/audit-record.js';
import { createAuditRecorder } from '../../src/audit/audit-recorder.js';
import { followAuditLog } from '../../src/audit/follow-audit-log.js';
import { createJsonlAuditLog } from '../../src/audit/jsonl-audit-log.js';
import { readAuditLog } from '../../src/audit/read-audit-log.js';
import { redactArguments, TOO_DEEP } from '../../src/audit/redact.js';
import { authorizeToolCall } from '../../src/policy/authorize-tool-call.js';
import { createYesApprover } from '../../src/policy/yes-approver.js';
import { waitUntil } from '../helpers/wait-until.js';

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'mcp-host-audit-'));
  file = path.join(directory, 'logs', 'audit.jsonl');
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

function toolCall(overrides: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return {
    type: 'tool-call',
    time: '2025-03-01T10:00:00.000Z',
    runId: 'run-1',
    callId: 'call_1',
    server: 'fs',
    tool: 'fs__read_file',
    originalTool: 'read_file',
    arguments: { path: '/tmp/a.txt' },
    decision: 'allow',
    policy: 'allow',
    decidedBy: 'annotation',
    reason: 'fs__read_file is read-only (readOnlyHint) on trusted server fs.',
    startedAt: '2025-03-01T09:59:59.900Z',
    durationMs: 100,
    outcome: 'ok',
    resultBytes: 42,
    truncated: false,
    ...overrides,
  };
}

describe('redactArguments', () => {
  it('removes secret values inside strings and the values of secret-looking keys, without touching the input', () => {
    const input = {
      url: 'https://api.test/?key=tok-123456&x=1',
      nested: [{ apiKey: 'k', note: 'uses tok-123456 twice: tok-123456' }],
      Password: 42,
      private_key: { pem: '...' },
      count: 3,
    };
    const redacted = redactArguments(input, { secrets: ['tok-123456', ''] });
    expect(redacted).toEqual({
      url: 'https://api.test/?key=[redacted]&x=1',
      nested: [{ apiKey: '[redacted]', note: 'uses [redacted] twice: [redacted]' }],
      Password: '[redacted]',
      private_key: '[redacted]',
      count: 3,
    });
    expect(input.url).toContain('tok-123456');
  });

  it('stops at a cycle and below the depth limit, but copies a value shared by two branches whole', () => {
    const shared = { token: 't', note: 'n' };
    const cyclic: Record<string, unknown> = { name: 'loop', left: shared, right: shared };
    cyclic.self = cyclic;
    expect(redactArguments(cyclic, { secrets: [] })).toEqual({
      name: 'loop',
      left: { token: '[redacted]', note: 'n' },
      right: { token: '[redacted]', note: 'n' },
      self: '[circular]',
    });
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200; level += 1) deep = { next: deep };
    let walked = redactArguments(deep, { secrets: [] }) as { next: unknown };
    let levels = 0;
    while (typeof walked === 'object') {
      walked = walked.next as { next: unknown };
      levels += 1;
    }
    expect(walked).toBe(TOO_DEEP);
    expect(levels).toBeLessThan(200);
  });

  it('replaces longer secrets before shorter ones they contain', () => {
    expect(redactArguments('abc-long-secret', { secrets: ['abc', 'abc-long-secret'] })).toBe('[redacted]');
  });
});

describe('JSONL audit log', () => {
  it('writes one line per record, creating the file with mode 0600 and its folder with 0700', () => {
    const log = createJsonlAuditLog(file);
    log.write(toolCall());
    log.write({
      type: 'server-start',
      time: '2025-03-01T09:00:00.000Z',
      runId: 'run-1',
      server: 'fs',
      transport: 'stdio',
      trust: 'trusted',
      pid: 123,
    });
    log.write(toolCall({ arguments: { text: 'line one\nline two\u2028' } }));
    log.close();
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(lines.slice(0, 3).map((line) => JSON.parse(line).type)).toEqual(['tool-call', 'server-start', 'tool-call']);
    expect(JSON.parse(lines[2]!).arguments.text).toBe('line one\nline two\u2028');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('keeps secrets out of the file: env-substituted values in argument strings, headers, password keys, errors', () => {
    const secrets = ['sk-live-7f3a9c', 'Bearer hdr-0b1c2d'];
    const log = createJsonlAuditLog(file, { secrets });
    log.write(
      toolCall({
        arguments: {
          command: 'curl -H "x-api: sk-live-7f3a9c" https://example.test',
          headers: { Authorization: 'Bearer hdr-0b1c2d', 'X-Trace': 'ok' },
          password: 'hunter2-correct-horse',
          query: 'plain text',
        },
        outcome: 'error',
        error: 'upstream said: invalid key sk-live-7f3a9c',
      }),
    );
    log.write({
      type: 'server-exit',
      time: '2025-03-01T10:00:01.000Z',
      runId: 'run-1',
      server: 'fs',
      reason: 'crashed',
      exitCode: 1,
      stderrTail: 'auth failed for Bearer hdr-0b1c2d',
    });
    log.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-live-7f3a9c');
    expect(text).not.toContain('hdr-0b1c2d');
    expect(text).not.toContain('hunter2-correct-horse');
    const [call] = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(call.arguments).toEqual({
      command: 'curl -H "x-api: [redacted]" https://example.test',
      headers: { Authorization: '[redacted]', 'X-Trace': 'ok' },
      password: '[redacted]',
      query: 'plain text',
    });
    expect(call.error).toBe('upstream said: invalid key [redacted]');
  });

  it('reads back with filters by time, server and tool glob', async () => {
    const log = createJsonlAuditLog(file);
    log.write(toolCall({ time: '2025-03-01T10:00:00.000Z' }));
    log.write(toolCall({ time: '2025-03-01T11:00:00.000Z', tool: 'fs__write_file', originalTool: 'write_file' }));
    log.write(toolCall({ time: '2025-03-01T12:00:00.000Z', server: 'web', tool: 'web__fetch', originalTool: 'fetch' }));
    log.write({
      type: 'trust-change',
      time: '2025-03-01T12:30:00.000Z',
      runId: 'run-1',
      server: 'fs',
      tool: 'write_file',
      change: 'tool-approved',
      by: 'terminal',
      detail: 'x',
    });
    log.close();
    const all = await readAuditLog(file);
    expect(all).toMatchObject({ exists: true, skippedLines: 0, tornLastLine: false });
    expect(all.records).toHaveLength(4);
    expect(all.endOffset).toBe(statSync(file).size);

    const since = await readAuditLog(file, { since: new Date('2025-03-01T10:30:00Z') });
    expect(since.records.map((record) => record.time)).toEqual([
      '2025-03-01T11:00:00.000Z',
      '2025-03-01T12:00:00.000Z',
      '2025-03-01T12:30:00.000Z',
    ]);
    const web = await readAuditLog(file, { server: 'web' });
    expect(web.records.map((record) => record.server)).toEqual(['web']);
    const writes = await readAuditLog(file, { tool: '*write*' });
    expect(writes.records.map((record) => record.type)).toEqual(['tool-call', 'trust-change']);
    const byOriginal = await readAuditLog(file, { tool: 'read_file' });
    expect(byOriginal.records).toHaveLength(1);
    expect(await readAuditLog(path.join(directory, 'missing.jsonl'))).toMatchObject({ exists: false, records: [] });
  });

  it('skips and counts a torn last line, and the next host starts a fresh line after it', async () => {
    const log = createJsonlAuditLog(file);
    log.write(toolCall({ callId: 'a' }));
    log.write(toolCall({ callId: 'b' }));
    log.close();
    const whole = readFileSync(file, 'utf8');
    appendFileSync(file, JSON.stringify(toolCall({ callId: 'torn' })).slice(0, 57));

    const torn = await readAuditLog(file);
    expect(torn.records.map((record) => (record as ToolCallRecord).callId)).toEqual(['a', 'b']);
    expect(torn).toMatchObject({ skippedLines: 1, tornLastLine: true, endOffset: Buffer.byteLength(whole) });

    const next = createJsonlAuditLog(file);
    next.write(toolCall({ callId: 'c' }));
    next.close();
    const after = await readAuditLog(file);
    expect(after.records.map((record) => (record as ToolCallRecord).callId)).toEqual(['a', 'b', 'c']);
    expect(after).toMatchObject({ skippedLines: 1, tornLastLine: false });
  });

  it('accepts a last record that only lacks its newline', async () => {
    writeFileSync(file.replace('logs/', ''), JSON.stringify(toolCall({ callId: 'z' })));
    const contents = await readAuditLog(file.replace('logs/', ''));
    expect(contents.records).toHaveLength(1);
    expect(contents.skippedLines).toBe(0);
  });

  it('follows appended records, including one written in two pieces', async () => {
    const log = createJsonlAuditLog(file);
    log.write(toolCall({ callId: 'before' }));
    const controller = new AbortController();
    const seen: AuditRecord[] = [];
    // From where a read of the log ended, as `audit --follow` does: a follower left to take the end of the file
    // itself takes it when its first look is done, which on a busy machine can come after the writes below.
    const { endOffset } = await readAuditLog(file);
    const following = (async () => {
      for await (const record of followAuditLog(file, {
        signal: controller.signal,
        startOffset: endOffset,
        pollIntervalMs: 20,
        filter: { server: 'fs' },
      })) {
        seen.push(record);
        if (seen.length === 2) controller.abort();
      }
    })();
    log.write(toolCall({ callId: 'after', server: 'web' }));
    log.write(toolCall({ callId: 'first' }));
    const split = `${JSON.stringify(toolCall({ callId: 'second' }))}\n`;
    appendFileSync(file, split.slice(0, 30));
    // The read that found "first" went on to the end of the file, so it held the first piece of "second".
    await waitUntil(() => seen.length === 1, 'the record before the one written in two pieces');
    appendFileSync(file, split.slice(30));
    await following;
    log.close();
    expect(seen.map((record) => (record as ToolCallRecord).callId)).toEqual(['first', 'second']);
  });

  it('given no start, starts at the end of the log: records written before are left out, those after are yielded', async () => {
    const log = createJsonlAuditLog(file);
    log.write(toolCall({ callId: 'before-1' }));
    log.write(toolCall({ callId: 'before-2' }));
    const controller = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const record of followAuditLog(file, { signal: controller.signal, pollIntervalMs: 20 })) {
        seen.push(String((record as ToolCallRecord).callId));
        if (seen.at(-1) === 'after-2') controller.abort();
      }
    })();
    // It takes the end of the file at its first look, which nothing outside it shows: a record is written at a time
    // until it yields one, so the records from that one on were written after it started.
    let probes = 0;
    await waitUntil(() => {
      if (seen.length > 0) return true;
      log.write(toolCall({ callId: `probe-${++probes}` }));
      return false;
    }, 'a record written after the follower started');
    log.write(toolCall({ callId: 'after-1' }));
    log.write(toolCall({ callId: 'after-2' }));
    await following;
    log.close();
    // None of the records already there; every one written after its start, once and in order.
    const firstProbe = Number(seen[0]?.replace('probe-', ''));
    const laterProbes = Array.from({ length: probes - firstProbe + 1 }, (_, index) => `probe-${firstProbe + index}`);
    expect(seen).toEqual([...laterProbes, 'after-1', 'after-2']);
  });

  it('starts over from the top of a log rotated and refilled past where it had read before it looked again', async () => {
    const log = createJsonlAuditLog(file);
    log.write(toolCall({ callId: 'old' }));
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const record of followAuditLog(file, {
      signal: controller.signal,
      startOffset: 0,
      pollIntervalMs: 20,
    })) {
      const callId = String((record as ToolCallRecord).callId);
      seen.push(callId);
      if (callId === 'old') {
        // Emptied as logrotate's copytruncate does, and longer again before the follower looks: it never sees the
        // file shorter than where it had read.
        truncateSync(file, 0);
        log.write(toolCall({ callId: 'new-1', time: '2025-03-01T11:00:00.000Z' }));
        log.write(toolCall({ callId: 'new-2', time: '2025-03-01T11:00:00.001Z' }));
      }
      if (callId === 'new-2') controller.abort();
    }
    log.close();
    expect(seen).toEqual(['old', 'new-1', 'new-2']);
  });
});

describe('audit recorder', () => {
  it('turns an authorization and an outcome into approval and tool-call records', async () => {
    const log = createJsonlAuditLog(file, { secrets: ['s3cret-value'] });
    const recorder = createAuditRecorder({ sink: log, runId: 'run-9' });
    const call = {
      callId: 'call_7',
      toolName: 'fs__rm',
      serverName: 'fs',
      originalToolName: 'rm',
      arguments: { path: '/tmp/x', token: 's3cret-value' },
    };
    const authorization = await authorizeToolCall({
      call,
      trust: 'untrusted',
      rules: { allow: [], ask: [], deny: [] },
      approver: createYesApprover(),
    });
    expect(authorization.asked).toEqual({ approver: 'yes', answer: 'allow-once' });
    await recorder.approval(call, authorization.asked!, authorization.decision.reason);
    await recorder.toolCall({
      call,
      authorization,
      startedAt: new Date('2025-03-01T10:00:00.000Z'),
      durationMs: 12,
      outcome: 'timeout',
      error: 'no answer within 1000 ms',
    });
    await recorder.trustChange({
      serverName: 'fs',
      toolName: 'rm',
      change: 'tool-approved',
      by: 'first-sight',
      detail: 'First sight.',
    });
    log.close();
    const { records } = await readAuditLog(file);
    expect(records.map((record) => record.type)).toEqual(['approval', 'tool-call', 'trust-change']);
    expect(records.every((record) => record.runId === 'run-9')).toBe(true);
    expect(records[0]).toMatchObject({ answer: 'allow-once', approver: 'yes', tool: 'fs__rm', callId: 'call_7' });
    expect(records[1]).toMatchObject({
      decision: 'allow',
      policy: 'ask',
      decidedBy: 'approver',
      approver: 'yes',
      outcome: 'timeout',
      startedAt: '2025-03-01T10:00:00.000Z',
      durationMs: 12,
      arguments: { path: '/tmp/x', token: '[redacted]' },
    });
    expect((records[1] as ToolCallRecord).reason).toMatch(/^Allowed by --yes/);
  });
});
