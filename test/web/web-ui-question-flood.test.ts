/**
 * A server that asks the web UI's user many questions at once (forms, here) cannot bury the questions that matter
 * under its own: its questions are shown one at a time, the next once the one before is answered, a few more wait
 * their turn, and the rest are declined at once. Without that, each new question sent every page the whole list
 * again, so a thousand of them cut the page's event stream off, and a tool call's approval waited behind them all.
 * Over the UI's own HTTP API, with a real raw server behind it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

const SENT = 50;
/** What the UI holds of one server's questions: one shown and the rest waiting. */
const HELD = 8;

let ui: RunningUi;

interface Pending {
  id: string;
  kind: string;
  server?: string;
  view: string;
}

async function pending(): Promise<Pending[]> {
  return (await callUiApi<Pending[]>(ui, '/api/approvals')).body;
}

async function answers(): Promise<Record<string, number>> {
  const called = await callUiApi<{ content: Array<{ text: string }> }>(ui, '/api/tools/call', {
    name: 'flood__answers',
    arguments: {},
  });
  return JSON.parse(called.body.content[0]!.text) as Record<string, number>;
}

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: {
      flood: { command: process.execPath, args: [fixtureServer('question-flood.mjs')], trust: 'trusted' },
      views: { command: process.execPath, args: [fixtureServer('app-views.mjs')] },
    },
    // A call by hand is the user's own; a view's call of a tool an ask rule names waits for an answer.
    permissions: { allow: ['flood__*'], ask: ['views__capabilities'], deny: [] },
  });
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('a server asking many questions at once in the web UI', () => {
  it('has one shown at a time and a few waiting, the rest declined, and a call’s approval is not buried', async () => {
    expect((await callUiApi(ui, '/api/tools/call', { name: 'flood__flood', arguments: { count: SENT } })).status).toBe(
      200,
    );
    await waitUntil(async () => (await answers()).decline === SENT - HELD, 'the questions past the held ones declined');
    const shown = await pending();
    expect(shown.map((question) => [question.kind, question.server])).toEqual([['elicit-form', 'flood']]);
    expect(shown[0]!.view).toContain('Question 1');

    // A tool call's approval asked now comes next, not after all of them.
    const opened = await callUiApi(ui, '/api/views/open', { tool: 'views__counter' });
    expect(opened.status).toBe(200);
    const call = callUiApi(ui, `/api/views/${String(opened.body.viewId)}/call`, {
      name: 'capabilities',
      arguments: {},
    });
    await waitUntil(async () => (await pending()).length === 2, 'the tool call’s approval');
    const [first, approval] = await pending();
    expect(first!.id).toBe(shown[0]!.id);
    expect(approval).toMatchObject({ kind: 'tool-call', server: 'views' });
    expect((await callUiApi(ui, `/api/approvals/${approval!.id}`, { answer: 'allow-once' })).status).toBe(200);
    expect((await call).status).toBe(200);

    // Answered, the server's question makes way for its next one.
    expect((await callUiApi(ui, `/api/approvals/${first!.id}`, { answer: 'decline' })).status).toBe(200);
    await waitUntil(async () => (await pending())[0]?.view.includes('Question 2') === true, 'the next question');
    expect((await pending()).length).toBe(1);
    expect((await answers()).decline).toBe(SENT - HELD + 1);
  }, 90_000);
});
