/**
 * What an MCP Apps view may ask of the host, over the UI's own HTTP API (as the page relays it): its own server's
 * tools that let the app call them, nothing else. The calls are allowed by the rules, so a refusal is the view's
 * limit and not a question left waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { exampleServer, fixtureServer, writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi, waitForUiEvent } from '../helpers/web-ui-process.js';

let ui: RunningUi;

const post = (path: string, body: unknown) => callUiApi(ui, path, body);

async function auditedTools(): Promise<string[]> {
  return (await auditRecords(ui.stateDir))
    .filter((record) => record.type === 'tool-call')
    .map((record) => String(record.tool));
}

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: {
      views: { command: process.execPath, args: [fixtureServer('app-views.mjs')] },
      calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' },
    },
    permissions: {
      allow: ['views__bump', 'views__model_only', 'calculator__add_numbers'],
      ask: ['views__capabilities'],
      deny: [],
    },
  });
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe("a view's tool calls", () => {
  it("reach its own server's tools for the app, and neither a tool for the model alone nor another server's", async () => {
    const opened = await post('/api/views/open', { tool: 'views__counter' });
    expect(opened.status).toBe(200);
    const viewId = String(opened.body.viewId);

    const bump = await post(`/api/views/${viewId}/call`, { name: 'bump', arguments: { by: 2 } });
    expect(bump.status).toBe(200);
    expect(bump.body.result).toEqual({ content: [{ type: 'text', text: 'bumped by 2' }] });

    const modelOnly = await post(`/api/views/${viewId}/call`, { name: 'model_only', arguments: {} });
    expect(modelOnly.status).toBe(400);
    expect(modelOnly.body.error).toBe(
      'The tool "model_only" is for the model only (its visibility leaves out the app).',
    );

    const other = await post(`/api/views/${viewId}/call`, { name: 'add_numbers', arguments: { a: 1, b: 2 } });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('The server "views" offers no tool "add_numbers".');

    // Only the bump ran: the audit records each call that was made, and the bump's record is written first.
    const audited = await auditedTools();
    expect(audited).toContain('views__bump');
    expect(audited).not.toContain('views__model_only');
    expect(audited).not.toContain('calculator__add_numbers');
  });

  it('end with the view: closing it withdraws the question a call of its waits on, and the call ends', async () => {
    const opened = await post('/api/views/open', { tool: 'views__counter' });
    const viewId = String(opened.body.viewId);
    const asked = waitForEvent(/"kind":"tool-call"/);
    const call = post(`/api/views/${viewId}/call`, { name: 'capabilities', arguments: {} });
    await asked;
    const closed = await post(`/api/views/${viewId}/close`, {});
    expect(closed.body).toEqual({ closed: true });
    const answer = await call;
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('The view was closed.');
    const pending = await fetch(`${ui.base}/api/approvals`, { headers: { authorization: `Bearer ${ui.token}` } });
    expect(await pending.json()).toEqual([]);
    expect(await auditedTools()).not.toContain('views__capabilities');
  });
});

const waitForEvent = (pattern: RegExp) => waitForUiEvent(ui, pattern);
