/**
 * A server that asks many questions at once (forms, here) cannot bury the questions that matter under its own: at
 * most 8 of one server's wait for an answer at once, and the rest are declined at once without being asked, in the
 * terminal's host as in the gateway, which would otherwise pass every one to its client. With a real raw server.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientRequestApprover } from '../../src/client-features/client-request-approver.js';
import { createHost } from '../../src/host/create-host.js';
import { auditRecords } from '../helpers/audit-records.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, temporaryDirectory, trustedServer, writeConfig } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';

const SENT = 50;
const WAITING = 8;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function floodConfig(): Promise<string> {
  return writeConfig({
    mcpServers: { flood: trustedServer(fixtureServer('question-flood.mjs')) },
    permissions: { allow: ['flood__*'], ask: [], deny: [] },
  });
}

function answersOf(text: string): Record<string, number> {
  return JSON.parse(text) as Record<string, number>;
}

describe('a server asking many questions at once', () => {
  it('has at most 8 put to the person at a time; the rest are declined at once and audited', async () => {
    const stateDir = await temporaryDirectory('mcp-host-waiting-questions-');
    let asked = 0;
    const approver: ClientRequestApprover = {
      kind: 'test',
      approveSampling: async () => 'deny',
      elicitForm: () => {
        asked += 1;
        return new Promise(() => {});
      },
      elicitUrl: async () => 'decline',
    };
    const host = await createHost({ config: await floodConfig(), stateDir, clientRequestApprover: approver });
    cleanups.push(() => host.close());
    await host.callTool('flood__flood', { count: SENT });
    const answers = async () => answersOf(textOf((await host.callTool('flood__answers', {})).result));
    await waitUntil(async () => (await answers()).decline === SENT - WAITING, 'the questions past 8 declined');
    await waitUntil(() => asked === WAITING, 'the 8 questions asked');
    expect(asked).toBe(WAITING);
    const refused = (await auditRecords(stateDir)).filter(
      (record) => record.tool === 'elicitation/create' && record.approver === 'host',
    );
    expect(refused).toHaveLength(SENT - WAITING);
    expect(refused[0]).toMatchObject({ decision: 'deny', outcome: 'denied' });
    expect(refused[0]?.reason).toContain('server "flood" already has 8 questions waiting for an answer');
  }, 60_000);

  it('passes at most 8 to the gateway’s client; the rest are declined at once', async () => {
    const stateDir = await temporaryDirectory('mcp-host-waiting-questions-');
    const client = new Client(
      { name: 'flooded-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', () => {
      asked += 1;
      return new Promise(() => {});
    });
    await connectStdioGateway(client, await floodConfig(), stateDir);
    cleanups.push(() => client.close());
    expect(textOf(await client.callTool({ name: 'flood__flood', arguments: { count: SENT } }))).toBe('sent');
    const answers = async () => answersOf(textOf(await client.callTool({ name: 'flood__answers', arguments: {} })));
    await waitUntil(async () => (await answers()).decline === SENT - WAITING, 'the questions past 8 declined');
    await waitUntil(() => asked === WAITING, 'the 8 questions passed on');
    expect(asked).toBe(WAITING);
  }, 60_000);
});
