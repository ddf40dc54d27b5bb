/**
 * Approving and revoking from the Trust page reach the audit log the UI's config writes, one `trust-change` record
 * per change with `by: web`, in the shape a run's own records have, in a file only its owner can read. An approval
 * the log cannot take is not made.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_LOG_FILE_NAME } from '../../src/audit/audit-log-path.js';
import { auditRecords } from '../helpers/audit-records.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

let ui: RunningUi;

const api = (path: string, body?: unknown) => callUiApi<unknown>(ui, path, body);

/**
 * The trust changes the Trust page recorded: those of the host's own run are its reviews (first sight, and what a
 * change makes it withhold), which the page's approver answers as `web` too.
 */
async function trustPageChanges(): Promise<Array<Record<string, unknown>>> {
  const { runId } = (await api('/api/state')).body as { runId: string };
  return (await auditRecords(ui.stateDir)).filter((record) => record.type === 'trust-change' && record.runId !== runId);
}

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')] } },
  });
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('trust changes from the web UI', () => {
  it('are each recorded in the audit log, a tool revoked and approved again, its server revoked', async () => {
    expect(await trustPageChanges()).toEqual([]);

    expect((await api('/api/trust/revoke', { server: 'counter', tool: 'echo' })).status).toBe(200);
    expect((await api('/api/trust/approve', { server: 'counter', tool: 'echo' })).status).toBe(200);
    expect((await api('/api/trust/revoke', { server: 'counter' })).status).toBe(200);

    const records = await trustPageChanges();
    expect(records.map((record) => [record.change, record.tool ?? '', record.by, record.detail])).toEqual([
      ['tool-revoked', 'echo', 'web', 'Revoked from the web UI.'],
      ['tool-approved', 'echo', 'web', 'Approved from the web UI (was revoked).'],
      ['server-revoked', '', 'web', 'Revoked from the web UI.'],
    ]);
    // The keys a run's trust-change records have, in their order; an approved tool carries its fingerprint.
    expect(Object.keys(records[0]!)).toEqual(['type', 'time', 'runId', 'server', 'tool', 'change', 'by', 'detail']);
    expect(Object.keys(records[1]!)).toEqual([
      'type',
      'time',
      'runId',
      'server',
      'tool',
      'change',
      'by',
      'detail',
      'fingerprint',
    ]);
    expect(records[1]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(records[2]!)).toEqual(['type', 'time', 'runId', 'server', 'change', 'by', 'detail']);
    expect(statSync(join(ui.stateDir, AUDIT_LOG_FILE_NAME)).mode & 0o777).toBe(0o600);
  });

  it('are not made when the audit log cannot take their record', async () => {
    // The server was revoked above, and its tools with it. The log's file becomes a folder: a record can no longer be
    // appended to it.
    const auditFile = join(ui.stateDir, AUDIT_LOG_FILE_NAME);
    rmSync(auditFile);
    mkdirSync(auditFile);

    expect((await api('/api/trust/approve', { server: 'counter', tool: 'echo' })).status).not.toBe(200);
    const servers = (await api('/api/trust')).body as Array<{
      name: string;
      tools: Array<{ name: string; storedState: string }>;
    }>;
    const echo = servers.find((server) => server.name === 'counter')?.tools.find((tool) => tool.name === 'echo');
    expect(echo?.storedState).toBe('revoked');
  });
});
