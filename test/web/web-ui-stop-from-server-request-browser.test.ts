/**
 * Stopping a chat turn from a server's own question, in real Chromium: a stdio server that asks for sampling or a form
 * during a call the turn made has its question marked as the turn's (nothing else was asked of that server), so the
 * dialog, which covers the chat's Stop, offers "Stop the turn": it refuses the question and stops the turn before the
 * model hears of the call's result. The same question during a call made from the Tools page, with no turn running,
 * is no turn's and offers no such button.
 */
import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/web/api-types.js';
import { auditRecords } from '../helpers/audit-records.js';
import { startChatTurn, waitForAnswersToTakeInput } from '../helpers/chat-page.js';
import { fixtureServer, trustedServer } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

const running = useScriptedUiInChromium(
  'mcp-host-ui-stop-server-request-',
  {
    scenarios: [
      {
        match: '^sample',
        turns: [
          { toolCalls: [{ name: 'asks__ask_model', arguments: { prompt: 'Say hello.' } }] },
          { text: 'The model heard: {{lastToolResult}}' },
        ],
      },
      {
        match: '^form',
        turns: [
          { toolCalls: [{ name: 'asks__ask_user', arguments: { question: 'Your name?' } }] },
          { text: 'The model heard: {{lastToolResult}}' },
        ],
      },
    ],
  },
  { mcpServers: { asks: trustedServer(fixtureServer('asks-when-told.mjs')) }, permissions: { allow: ['asks__*'] } },
);

/** The audit's decisions on a server's requests of `method`, once there is one. */
async function decisionsOn(method: string): Promise<unknown[]> {
  let decisions: unknown[] = [];
  await waitUntil(async () => {
    decisions = (await auditRecords(running().ui.stateDir))
      .filter((record) => record.tool === method)
      .map((record) => record.decision);
    return decisions.length > 0;
  }, `the audit record of ${method}`);
  return decisions;
}

async function stopTheTurnFrom(prompt: string, title: string): Promise<void> {
  const page = running().page;
  await startChatTurn(page, prompt);
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor(WAIT);
  await waitForAnswersToTakeInput(dialog);
  await dialog.getByRole('button', { name: 'Stop the turn' }).click();
  await dialog.waitFor({ state: 'hidden', ...WAIT });
  await page.getByRole('button', { name: 'Send' }).waitFor(WAIT);
  expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
  expect(await page.locator('.turn').getByText('The model heard').count()).toBe(0);
}

describe("the dialog of a server's question during a chat turn's call", () => {
  it('stops the turn from a sampling request, denying it', async () => {
    await stopTheTurnFrom('sample it', 'A server asks the model to answer a prompt');
    expect(await decisionsOn('sampling/createMessage')).toEqual(['deny']);
  }, 60_000);

  it('stops the turn from a form, declining it', async () => {
    // A conversation of its own: the one before stopped with its scenario's answer still to play.
    expect((await callUiApi(running().ui, '/api/sessions/new', {})).status).toBe(200);
    await stopTheTurnFrom('form please', 'A server asks you to fill in a form');
    expect(await decisionsOn('elicitation/create')).toEqual(['deny']);
  }, 60_000);

  it('marks no turn for a question while no turn runs', async () => {
    const ui = running().ui;
    const call = callUiApi(ui, '/api/tools/call', { name: 'asks__ask_model', arguments: { prompt: 'Say hi.' } });
    let pending: PendingApproval[] = [];
    await waitUntil(async () => {
      pending = (await callUiApi<PendingApproval[]>(ui, '/api/approvals')).body;
      return pending.length === 1;
    }, 'the sampling request to wait');
    expect(pending[0]?.kind).toBe('sampling');
    expect(pending[0]?.chatTurn).toBeUndefined();
    const refused = await callUiApi(ui, '/api/chat/stop', { approval: pending[0]!.id });
    expect(refused.status).toBe(409);
    const answered = await callUiApi(ui, `/api/approvals/${pending[0]!.id}`, { answer: 'deny' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect((await call).status).toBe(200);
  }, 60_000);
});
