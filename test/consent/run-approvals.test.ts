/**
 * Approvals for the rest of the run: "allow this tool for this run" and "allow this server for this run" besides
 * once / always / deny. Five parallel calls of one tool ask once; an ask rule still asks every time; nothing is
 * remembered past the host's life; the terminal offers both answers.
 */
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import type { ToolApprovalAnswer, ToolApprovalRequest } from '../../src/policy/approver.js';
import { createTerminalApprover } from '../../src/policy/terminal-approver.js';
import { auditRecords } from '../helpers/audit-records.js';
import { hostConfig } from '../helpers/configs.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  auditOf,
  closeHosts,
  freshStateDir,
  openHost,
  RecordingApprover,
  recordsOfType,
  resultText,
  scriptedModel,
  type ToolSpec,
  toolResultsIn,
} from './consent-helpers.js';
import { type HttpFixtures, startHttpFixtures } from './http-fixtures.js';

const tools: ToolSpec[] = [{ name: 'write_file' }, { name: 'delete_file' }];
// Servers that need no process of their own are served over Streamable HTTP from this process.
let servers: HttpFixtures;
beforeAll(async () => {
  servers = await startHttpFixtures();
});
afterEach(closeHosts);
afterAll(() => servers.close());

function calls(name: string, count: number, prefix: string) {
  return Array.from({ length: count }, (_, index) => ({ id: `${prefix}${index}`, name, arguments: { n: index } }));
}

async function open(
  answer: (request: ToolApprovalRequest) => ToolApprovalAnswer,
  turns: Parameters<typeof scriptedModel>[0],
  stateDir = freshStateDir(),
  permissions = { allow: [], ask: [] as string[], deny: [] },
) {
  const approver = new RecordingApprover({ toolCall: answer });
  const provider = scriptedModel(turns);
  const host = await openHost({
    config: hostConfig([servers.toolSet('fs', tools), servers.toolSet('web', [{ name: 'fetch' }])], { permissions }),
    provider,
    approver,
    stateDir,
  });
  return { host, provider, approver };
}

describe('approvals for this run', () => {
  it('"this tool for this run": five parallel calls ask once, later turns too; other tools still ask', async () => {
    const { host, provider, approver } = await open(
      (request) => (request.toolName === 'fs__write_file' ? 'allow-tool-for-run' : 'deny'),
      [
        { toolCalls: calls('fs__write_file', 5, 'w') },
        { toolCalls: [...calls('fs__write_file', 1, 'again'), ...calls('fs__delete_file', 1, 'd')] },
        { text: 'done' },
      ],
    );
    await host.run('write five files');
    expect(approver.toolCalls.map((request) => request.toolName)).toEqual(['fs__write_file', 'fs__delete_file']);
    const first = toolResultsIn(provider.requests[1]);
    expect([...first.values()].map((result) => result.isError)).toEqual([false, false, false, false, false]);
    const second = toolResultsIn(provider.requests[2]);
    expect(resultText(second.get('again0'))).toBe('fs/write_file {"n":0}');
    expect(second.get('d0')?.isError).toBe(true);

    const records = await auditOf(host);
    expect(recordsOfType(records, 'approval').map((record) => [record.tool, record.answer])).toEqual([
      ['fs__write_file', 'allow-tool-for-run'],
      ['fs__delete_file', 'deny'],
    ]);
    const writes = recordsOfType(records, 'tool-call').filter((record) => record.tool === 'fs__write_file');
    expect(writes.map((record) => record.decidedBy).sort()).toEqual([
      'approver',
      'run-approval',
      'run-approval',
      'run-approval',
      'run-approval',
      'run-approval',
    ]);
    expect(writes.find((record) => record.decidedBy === 'run-approval')?.reason).toMatch(
      /^You allowed fs__write_file for this run\. Asked before because: /,
    );
  });

  it('"this server for this run" covers every tool of that server, not of another', async () => {
    const stateDir = freshStateDir();
    const { host, approver } = await open(
      (request) => (request.serverName === 'fs' ? 'allow-server-for-run' : 'deny'),
      [
        { toolCalls: calls('fs__write_file', 1, 'w') },
        { toolCalls: [...calls('fs__delete_file', 2, 'd'), ...calls('web__fetch', 1, 'f')] },
        { text: 'done' },
      ],
      stateDir,
    );
    await host.run('go');
    expect(approver.toolCalls.map((request) => request.toolName)).toEqual(['fs__write_file', 'web__fetch']);
    const deletes = recordsOfType(await auditRecords<AuditRecord>(stateDir), 'tool-call').filter(
      (record) => record.tool === 'fs__delete_file',
    );
    expect(deletes.map((record) => [record.decidedBy, record.outcome])).toEqual([
      ['run-approval', 'ok'],
      ['run-approval', 'ok'],
    ]);

    // A new host is a new run: it asks again, as nothing was written to the trust store.
    await host.close();
    const next = await open(() => 'deny', [{ toolCalls: calls('fs__write_file', 1, 'w') }, { text: 'done' }], stateDir);
    await next.host.run('go');
    expect(next.approver.toolCalls.map((request) => request.toolName)).toEqual(['fs__write_file']);
  });

  it('where an ask rule decided, such an answer allows that call only', async () => {
    const { host, approver } = await open(
      () => 'allow-tool-for-run',
      [{ toolCalls: calls('fs__write_file', 1, 'a') }, { toolCalls: calls('fs__write_file', 1, 'b') }, { text: 'ok' }],
      freshStateDir(),
      { allow: [], ask: ['fs__write_*'], deny: [] },
    );
    await host.run('go');
    expect(approver.toolCalls).toHaveLength(2);
    expect(approver.toolCalls[0]?.canAlwaysAllow).toBe(false);
  });
});

describe('the terminal offers both answers', () => {
  it('t is "this tool for this run", s is "this server for this run"; neither where a rule asks', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const approver = createTerminalApprover({ input, output });
    const request: ToolApprovalRequest = {
      serverName: 'fs',
      toolName: 'fs__write_file',
      originalToolName: 'write_file',
      arguments: {},
      trust: 'untrusted',
      reason: 'Server fs is untrusted; its tools ask before every call.',
      warnings: [],
      hiddenContent: [],
      canAlwaysAllow: true,
    };
    // Each line is typed once the terminal has asked for it, as a person would.
    const waitFor = (text: string): Promise<void> =>
      waitUntil(() => printed.includes(text), JSON.stringify(text), 20_000, 5);
    const answerWith = async (typed: string[], canAlwaysAllow = true): Promise<ToolApprovalAnswer> => {
      printed = '';
      const answer = approver.approveToolCall({ ...request, canAlwaysAllow });
      await waitFor('Your choice');
      for (const line of typed) {
        const before = printed.length;
        input.write(`${line}\n`);
        if (line !== typed.at(-1)) {
          await waitUntil(() => printed.length > before, `the answer to "${line}"`, 20_000, 5);
        }
      }
      return answer;
    };
    try {
      expect(await answerWith(['t'])).toBe('allow-tool-for-run');
      expect(printed).toContain('[t] allow fs__write_file for this run  [s] allow every tool of fs for this run');
      expect(await answerWith(['s'])).toBe('allow-server-for-run');
      expect(await answerWith(['t', 'd'], false)).toBe('deny');
      expect(printed).toContain('Please answer o, d (you typed "t")');
    } finally {
      approver.close();
    }
  });
});
