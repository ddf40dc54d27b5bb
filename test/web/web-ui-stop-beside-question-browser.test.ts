/**
 * Stopping a chat turn from a question it did not ask, in real Chromium: a changed tool definition is no turn's (so
 * its dialog offers no "Stop the turn"), yet the dialog covers the chat's Stop while the turn runs. It offers, apart
 * from the answers, to stop the running turn: reached from the keyboard, it cancels the turn as the chat's Stop does
 * (the same audit record, the same transcript), and the question stays open and answerable.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessageView, ChatStateView } from '../../src/web/api-types.js';
import { auditRecords } from '../helpers/audit-records.js';
import { startChatTurn, tabTo, waitForAnswersToTakeInput } from '../helpers/chat-page.js';
import { waitForHangCalls } from '../helpers/hang-calls.js';
import { fixtureServer, trustedServer } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };
const STOP_BESIDE = 'Stop the running turn — this question stays open';

const running = useScriptedUiInChromium(
  'mcp-host-ui-stop-beside-',
  {
    scenarios: [
      {
        // change_ping changes ping and says so: the host asks about the changed definition, and the turn goes on.
        match: '^change',
        turns: [
          { toolCalls: [{ name: 'changes__change_ping', arguments: {} }] },
          { toolCalls: [{ name: 'waits__hang', arguments: {} }] },
          { text: 'The turn was not stopped.' },
        ],
      },
      {
        match: '^wait',
        turns: [{ toolCalls: [{ name: 'waits__hang', arguments: {} }] }, { text: 'The turn was not stopped.' }],
      },
    ],
  },
  {
    mcpServers: {
      changes: trustedServer(fixtureServer('crash-mid-call.mjs')),
      waits: trustedServer(fixtureServer('hang.mjs')),
    },
    permissions: { allow: ['changes__*', 'waits__*'] },
  },
);

/** The hang call's audit records, as what tells a stopped call from another. */
async function hangCalls(): Promise<unknown[]> {
  const records = await auditRecords(running().ui.stateDir);
  return records
    .filter((record) => record.type === 'tool-call' && record.tool === 'waits__hang')
    .map(({ tool, decision, outcome, error }) => ({ tool, decision, outcome, error }));
}

/** The hang call's audit records once there are `count`: a stopped call's record is written as the call settles,
 * which may be after the turn has ended and the page shows Send again. */
async function hangCallsOnce(count: number): Promise<unknown[]> {
  await waitUntil(async () => (await hangCalls()).length >= count, `${count} audit records of the hang tool`);
  return hangCalls();
}

/** The open conversation's messages after the user's message `prompt`, up to the next. */
async function turnMessages(prompt: string): Promise<ChatMessageView[]> {
  const messages = (await callUiApi<ChatStateView>(running().ui, '/api/chat')).body.session?.messages ?? [];
  const start = messages.findIndex((message) => message.role === 'user' && message.text === prompt);
  expect(start, `the transcript holds "${prompt}"`).not.toBe(-1);
  const next = messages.findIndex((message, index) => index > start && message.role === 'user');
  return messages.slice(start + 1, next === -1 ? undefined : next);
}

describe('a question no chat turn asked, shown while a turn runs', () => {
  it('stops the turn from the keyboard as the chat’s Stop does, and the question stays open', async () => {
    const { page, ui } = running();
    await startChatTurn(page, 'change it');
    const dialog = page.getByRole('dialog', { name: 'A tool changed since you approved it' });
    await dialog.waitFor(WAIT);
    const stop = dialog.getByRole('button', { name: STOP_BESIDE });
    await stop.waitFor(WAIT);
    // Not the turn's question: nothing offers to answer it by stopping.
    expect(await dialog.getByRole('button', { name: 'Stop the turn', exact: true }).count()).toBe(0);
    expect(await stop.getAttribute('aria-describedby')).not.toBeNull();
    await dialog.getByText('Not an answer').waitFor(WAIT);
    // The turn goes on to its call that never answers; it is stopped from the dialog, not by the call ending.
    await waitForHangCalls(ui, 1);
    // A cancel naming another turn stops nothing.
    expect((await callUiApi(ui, '/api/chat/cancel', { turnId: 'another-turn' })).body).toEqual({
      cancelled: false,
    });

    // From the question's title, where the focus starts, to the button by Tab alone, pressed with Enter once the
    // answers take input.
    await waitForAnswersToTakeInput(dialog);
    expect(await tabTo(page, STOP_BESIDE)).toBe(STOP_BESIDE);
    await page.keyboard.press('Enter');

    // The turn ends, stopped; the button goes with it, and the same question still waits.
    await page.getByRole('button', { name: 'Send' }).waitFor(WAIT);
    await stop.waitFor({ state: 'detached', ...WAIT });
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    await dialog.getByRole('status').getByText('this question still waits for your answer').waitFor(WAIT);
    expect(await dialog.isVisible()).toBe(true);
    const pending = (await callUiApi<Array<{ kind: string; tool?: string }>>(ui, '/api/approvals')).body;
    expect(pending.map(({ kind, tool }) => ({ kind, tool }))).toEqual([
      { kind: 'tool-definition', tool: 'changes__ping' },
    ]);
    expect(await hangCallsOnce(1)).toEqual([
      { tool: 'waits__hang', decision: 'allow', outcome: 'cancelled', error: expect.any(String) },
    ]);
    expect(await page.locator('.turn').getByText('The turn was not stopped.').count()).toBe(0);

    // Still answerable, from the dialog.
    await dialog.getByRole('button', { name: 'Keep withheld', disabled: false }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    expect((await callUiApi(ui, '/api/approvals')).body).toEqual([]);

    // The chat's own Stop, on a turn like it in a new conversation: the same audit record and the same transcript.
    // From the stopped call on, its number in the conversation aside: the call, its cancelled result, nothing after.
    const hangOf = async (prompt: string) => {
      const messages = await turnMessages(prompt);
      return messages
        .slice(messages.findIndex((message) => message.toolName === 'waits__hang'))
        .map(({ number: _number, ...message }) => message);
    };
    const stoppedFromDialog = await hangOf('change it');
    expect(stoppedFromDialog.length).toBe(1);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('wait');
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForHangCalls(ui, 2);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor(WAIT);
    const [fromDialog, fromPage] = await hangCallsOnce(2);
    expect(fromDialog).toEqual(fromPage);
    expect(await hangOf('wait')).toEqual(stoppedFromDialog);
  }, 90_000);
});
