/**
 * `GET /api/chat/running` tells a page which chat turn runs, and nothing of the conversation: the approval dialog
 * needs only that to name the turn its Stop stops, and `GET /api/chat` sends the conversation's messages too, which
 * may be megabytes. Behind the token, as every route of the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, RunningTurnView } from '../../src/web/api-types.js';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { callUiApi, type RunningUi, startUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

/** A message long enough that the conversation is far larger than anything the route should send. */
const LONG_MESSAGE = `remember ${'x'.repeat(200_000)}`;

let ui: RunningUi | undefined;

beforeAll(async () => {
  const config = await writeScriptedConfig(
    'mcp-host-ui-running-turn-',
    {
      scenarios: [
        { match: '^remember', turns: [{ text: 'Remembered.' }] },
        {
          match: '^add',
          turns: [
            { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }] },
            { text: 'The model heard: {{lastToolResult}}' },
          ],
        },
      ],
    },
    {
      mcpServers: { calculator: trustedCalculator },
      permissions: { ask: ['calculator__add_numbers'] },
    },
  );
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

/** The route's answer as sent, and as read. */
async function readRunningTurn(running: RunningUi): Promise<{ text: string; view: RunningTurnView }> {
  const response = await fetch(`${running.base}/api/chat/running`, {
    headers: { authorization: `Bearer ${running.token}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, view: JSON.parse(text) as RunningTurnView };
}

describe('GET /api/chat/running', () => {
  it('names the running turn alone while it runs, and no turn once it ended', async () => {
    const running = ui!;
    expect((await readRunningTurn(running)).view).toEqual({ running: false });

    const remembered = await callUiApi<{ turnId: string }>(running, '/api/chat', { text: LONG_MESSAGE });
    expect(remembered.status, JSON.stringify(remembered.body)).toBe(200);
    await waitForNoTurnRunning(running);

    const sent = await callUiApi<{ turnId: string }>(running, '/api/chat', { text: 'add them', turnId: 'adding-1' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let pending: PendingApproval[] = [];
    await waitUntil(async () => {
      pending = (await callUiApi<PendingApproval[]>(running, '/api/approvals')).body;
      return pending.length === 1;
    }, 'the call to be asked about');

    const whileRunning = await readRunningTurn(running);
    expect(whileRunning.view).toEqual({ running: true, turnId: 'adding-1' });
    expect(whileRunning.text.length).toBeLessThan(100);
    const conversation = await fetch(`${running.base}/api/chat`, {
      headers: { authorization: `Bearer ${running.token}` },
    });
    expect((await conversation.text()).length, 'the whole state holds the long message').toBeGreaterThan(50_000);

    const answered = await callUiApi(running, `/api/approvals/${pending[0]!.id}`, { answer: 'deny' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await waitForNoTurnRunning(running);
    expect((await readRunningTurn(running)).view).toEqual({ running: false });
  }, 60_000);

  it('is refused without the token', async () => {
    const running = ui!;
    const response = await fetch(`${running.base}/api/chat/running`);
    expect(response.status).toBe(401);
  });
});
