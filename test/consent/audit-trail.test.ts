/**
 * The audit log a host writes, read back from its JSONL file: every decision with its reason, server starts and
 * exits, trust changes, and no secret from the config or the arguments anywhere in the file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AUDIT_LOG_FILE_NAME } from '../../src/audit/audit-log-path.js';
import { hostConfig } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';
import {
  auditOf,
  closeHosts,
  headerServerPath,
  openHost,
  RecordingApprover,
  recordsOfType,
  resultText,
  scriptedModel,
  toolResultsIn,
  toolSetServer,
  toolSetServerEntry,
} from './consent-helpers.js';

const children: ChildProcess[] = [];
afterEach(async () => {
  await closeHosts();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

describe('every decision is audited with its reason', () => {
  it('records server starts, first-use pins, approvals and one tool-call record per call, each with a reason', async () => {
    const approver = new RecordingApprover({
      toolCall: (request) => (request.toolName === 'fs__write_file' ? 'allow-once' : 'deny'),
    });
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: 'rule_allow', name: 'fs__list', arguments: {} },
          { id: 'rule_deny', name: 'fs__delete_file', arguments: { path: 'a' } },
          { id: 'asked_yes', name: 'fs__write_file', arguments: { path: 'a' } },
          { id: 'asked_no', name: 'fs__move_file', arguments: { from: 'a', to: 'b' } },
          { id: 'annotation', name: 'docs__read', arguments: {} },
        ],
      },
      { text: 'done' },
    ]);
    const host = await openHost({
      config: hostConfig(
        [
          toolSetServer('fs', [
            { name: 'list', description: 'Lists.' },
            { name: 'delete_file', description: 'Deletes.' },
            { name: 'write_file', description: 'Writes.' },
            { name: 'move_file', description: 'Moves.' },
          ]),
          toolSetServer('docs', [{ name: 'read', annotations: { readOnlyHint: true, openWorldHint: false } }], {
            trust: 'trusted',
          }),
        ],
        { permissions: { allow: ['fs__list'], ask: [], deny: ['fs__delete_*'] } },
      ),
      provider,
      approver,
    });
    await host.run('do things');
    const records = await auditOf(host);

    // Every record belongs to this host's run.
    for (const record of records) expect(record.runId).toBe(host.runId);

    const starts = recordsOfType(records, 'server-start');
    expect(starts.map((record) => [record.server, record.transport, record.trust, record.toolCount])).toEqual(
      expect.arrayContaining([
        ['fs', 'stdio', 'untrusted', 4],
        ['docs', 'stdio', 'trusted', 1],
      ]),
    );
    for (const start of starts) expect(start.pid).toBeGreaterThan(0);

    const pins = recordsOfType(records, 'trust-change');
    expect(pins).toContainEqual(
      expect.objectContaining({
        server: 'fs',
        change: 'server-approved',
        by: 'first-sight',
        detail: 'First start of fs.',
      }),
    );
    const toolPins = pins.filter((record) => record.change === 'tool-approved');
    expect(toolPins.map((record) => `${record.server}/${record.tool}`).sort()).toEqual([
      'docs/read',
      'fs/delete_file',
      'fs/list',
      'fs/move_file',
      'fs/write_file',
    ]);
    for (const pin of toolPins) expect(pin.fingerprint).toMatch(/^[0-9a-f]{64}$/);

    const calls = new Map(recordsOfType(records, 'tool-call').map((record) => [record.callId, record]));
    expect(calls.get('rule_allow')).toMatchObject({
      decision: 'allow',
      policy: 'allow',
      decidedBy: 'rule',
      rule: 'fs__list',
    });
    expect(calls.get('rule_deny')).toMatchObject({
      decision: 'deny',
      policy: 'deny',
      decidedBy: 'rule',
      rule: 'fs__delete_*',
    });
    expect(calls.get('asked_yes')).toMatchObject({ decision: 'allow', policy: 'ask', decidedBy: 'approver' });
    expect(calls.get('asked_no')).toMatchObject({ decision: 'deny', policy: 'ask', decidedBy: 'approver' });
    expect(calls.get('annotation')).toMatchObject({ decision: 'allow', policy: 'allow', decidedBy: 'annotation' });
    expect(calls.size).toBe(5);
    for (const record of calls.values()) {
      expect(record.reason.length).toBeGreaterThan(10);
      expect(record.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    // Calls that ran say when and for how long; denied ones never started.
    expect(calls.get('asked_yes')?.startedAt).toBeDefined();
    expect(calls.get('asked_yes')?.durationMs).toBeGreaterThanOrEqual(0);
    expect(calls.get('asked_yes')?.resultBytes).toBeGreaterThan(0);
    expect(calls.get('asked_no')?.startedAt).toBeUndefined();

    // One approval record per question asked, with the answer and why it was asked.
    const approvals = recordsOfType(records, 'approval');
    expect(approvals.map((record) => [record.tool, record.answer, record.approver]).sort()).toEqual([
      ['fs__move_file', 'deny', 'recording'],
      ['fs__write_file', 'allow-once', 'recording'],
    ]);
    for (const approval of approvals) {
      expect(approval.reason).toBe('Server fs is untrusted; its tools ask before every call.');
      expect(approval.callId).toBe(approval.tool === 'fs__write_file' ? 'asked_yes' : 'asked_no');
    }

    // Closing the host ends each server it started, and says so.
    await host.close();
    const exits = recordsOfType(await auditOf(host), 'server-exit');
    expect(exits.map((record) => [record.server, record.reason]).sort()).toEqual([
      ['docs', 'closed'],
      ['fs', 'closed'],
    ]);
  });

  it('records a server that dies mid-call: the call as crashed and a server-exit with its stderr tail', async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: 'boom', name: 'x__explode', arguments: {} }] },
      { text: 'ok' },
    ]);
    const host = await openHost({
      config: hostConfig([toolSetServer('x', [{ name: 'explode', crash: true }])], {
        permissions: { allow: ['x__explode'], ask: [], deny: [] },
      }),
      provider,
    });
    await host.run('explode');
    const records = await auditOf(host);
    expect(recordsOfType(records, 'tool-call')[0]).toMatchObject({ callId: 'boom', outcome: 'crashed' });
    // It is restarted for later calls; only the crash is recorded (closing the host adds a `closed` exit later).
    const exits = recordsOfType(records, 'server-exit');
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatchObject({ server: 'x', reason: 'crashed', signal: 'SIGKILL' });
    expect(exits[0]!.stderrTail).toContain('crashing with {}');
  });
});

describe('secrets never reach the audit file', () => {
  it('keeps out values substituted from the environment, header values, password arguments and secrets inside arguments', async () => {
    const secret = 'sk-live-7f3a9c2e5b1d4f60';
    const password = 'correct horse battery staple';
    const headerServer = spawn(process.execPath, [headerServerPath], {
      env: { ...process.env, EXPECTED_KEY: secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(headerServer);
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      headerServer.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      headerServer.on('exit', (code) => reject(new Error(`header server exited with ${code}`)));
    });

    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax, not a template.
    const reference = '${env:SECRET_TOKEN}';
    const directory = await temporaryDirectory('mcp-host-secrets-');
    const configFile = join(directory, 'mcp-host.json');
    await writeFile(
      configFile,
      JSON.stringify({
        mcpServers: {
          vault: toolSetServerEntry(
            [
              { name: 'store', description: 'Stores a value.', reply: 'stored {{args}}' },
              { name: 'leak', description: 'Fails loudly.', crash: true },
            ],
            { args: [`--token=${reference}`], env: { API_TOKEN: reference } },
          ),
          api: { url, headers: { 'x-api-key': reference }, oauth: false },
        },
        permissions: { allow: ['vault__*', 'api__*'] },
      }),
    );
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: 'key', name: 'api__check_key', arguments: {} },
          {
            id: 'store',
            name: 'vault__store',
            arguments: { password, note: `the token is ${secret}, keep it`, nested: { list: [secret] } },
          },
        ],
      },
      { toolCalls: [{ id: 'leak', name: 'vault__leak', arguments: { value: secret } }] },
      { text: 'done' },
    ]);
    const host = await openHost({ config: configFile, env: { ...process.env, SECRET_TOKEN: secret }, provider });
    await host.run('store my secrets');

    // The header really went to the server (it answers 403 without it), and the arguments really went to the tool.
    const results = toolResultsIn(provider.requests[1]);
    expect(resultText(results.get('key'))).toBe('key accepted');
    expect(resultText(results.get('store'))).toContain(secret);

    const text = readFileSync(join(host.stateDir, AUDIT_LOG_FILE_NAME), 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(password);
    const records = await auditOf(host);
    const calls = new Map(recordsOfType(records, 'tool-call').map((record) => [record.callId, record]));
    expect(calls.get('store')?.arguments).toEqual({
      password: '[redacted]',
      note: 'the token is [redacted], keep it',
      nested: { list: ['[redacted]'] },
    });
    expect(calls.get('leak')).toMatchObject({ outcome: 'crashed', arguments: { value: '[redacted]' } });
    // The crash put the secret on stderr; the record of the exit keeps the tail without it.
    const exit = recordsOfType(records, 'server-exit')[0];
    expect(exit?.stderrTail).toContain('crashing with {"value":"[redacted]"}');
    expect(
      recordsOfType(records, 'server-start')
        .map((record) => record.server)
        .sort(),
    ).toEqual(['api', 'vault']);
  });
});
