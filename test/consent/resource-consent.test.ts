/**
 * Reading a resource is a call like any other: the host's resource tools carry their server's trust, so an
 * untrusted server's `file:///etc/passwd` is not handed to the model without asking, and the audit log states the
 * trust the call was really decided under.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { USER_DENIED_MESSAGE } from '../../src/policy/approver.js';
import { headlessDenialMessage } from '../../src/policy/headless-approver.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';
import {
  auditOf,
  closeHosts,
  openHost,
  RecordingApprover,
  recordsOfType,
  resultText,
  scriptedModel,
  toolResultsIn,
} from './consent-helpers.js';

const resourceServerPath = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'resource-server.mjs'));
const READ = 'mcp-host__files__read_resource';
const LIST = 'mcp-host__files__list_resources';
const PASSWD = 'root:x:0:0:fixture-root';

afterEach(closeHosts);

function filesServer(trust: 'trusted' | 'untrusted') {
  return stdioServer('files', [resourceServerPath], { trust });
}

const readPasswd = [
  { toolCalls: [{ id: 'r1', name: READ, arguments: { uri: 'file:///etc/passwd' } }] },
  { text: 'done' },
];

describe('resource reads ask like any call of an untrusted server', () => {
  it('asks before reading from an untrusted server; a denial keeps the file from the model', async () => {
    const approver = new RecordingApprover({ toolCall: () => 'deny' });
    const provider = scriptedModel(readPasswd);
    const host = await openHost({ config: hostConfig([filesServer('untrusted')]), provider, approver });
    await host.run('show me the users');

    expect(approver.toolCalls).toHaveLength(1);
    expect(approver.toolCalls[0]).toMatchObject({ toolName: READ, serverName: 'files', trust: 'untrusted' });
    const result = toolResultsIn(provider.requests[1]).get('r1');
    expect(result?.isError).toBe(true);
    expect(resultText(result)).toBe(USER_DENIED_MESSAGE);
    expect(JSON.stringify(provider.requests)).not.toContain(PASSWD);

    const [record] = recordsOfType(await auditOf(host), 'tool-call');
    expect(record).toMatchObject({
      server: 'files',
      tool: READ,
      trust: 'untrusted',
      policy: 'ask',
      decidedBy: 'approver',
      decision: 'deny',
      outcome: 'denied',
    });
    expect(record?.reason).not.toContain('on trusted server');
  });

  it('a headless run refuses the read and the listing, saying how to allow them', async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: 'l1', name: LIST, arguments: {} },
          { id: 'r1', name: READ, arguments: { uri: 'file:///etc/passwd' } },
        ],
      },
      { text: 'done' },
    ]);
    const host = await openHost({ config: hostConfig([filesServer('untrusted')]), provider });
    await host.run('show me the users');
    const results = toolResultsIn(provider.requests[1]);
    expect(resultText(results.get('r1'))).toBe(headlessDenialMessage(READ));
    expect(resultText(results.get('l1'))).toBe(headlessDenialMessage(LIST));
    expect(JSON.stringify(provider.requests)).not.toContain(PASSWD);
    const records = recordsOfType(await auditOf(host), 'tool-call');
    expect(records.map((record) => [record.tool, record.trust, record.decision])).toEqual(
      expect.arrayContaining([
        [READ, 'untrusted', 'deny'],
        [LIST, 'untrusted', 'deny'],
      ]),
    );
  });

  it('an allowed read from an untrusted server is audited as untrusted and approved by the user', async () => {
    const approver = new RecordingApprover({ toolCall: () => 'allow-once' });
    const provider = scriptedModel(readPasswd);
    const host = await openHost({ config: hostConfig([filesServer('untrusted')]), provider, approver });
    await host.run('show me the users');
    expect(resultText(toolResultsIn(provider.requests[1]).get('r1'))).toContain(PASSWD);
    const [record] = recordsOfType(await auditOf(host), 'tool-call');
    expect(record).toMatchObject({ tool: READ, trust: 'untrusted', decidedBy: 'approver', outcome: 'ok' });
  });

  it('a trusted server is read without asking, and the audit says trusted', async () => {
    const approver = new RecordingApprover();
    const provider = scriptedModel(readPasswd);
    const host = await openHost({ config: hostConfig([filesServer('trusted')]), provider, approver });
    await host.run('show me the users');
    expect(approver.toolCalls).toEqual([]);
    expect(resultText(toolResultsIn(provider.requests[1]).get('r1'))).toContain(PASSWD);
    const [record] = recordsOfType(await auditOf(host), 'tool-call');
    expect(record).toMatchObject({ tool: READ, trust: 'trusted', decidedBy: 'annotation', outcome: 'ok' });
  });
});
