/**
 * Stopping a chat turn from the approval dialog, in real Chromium: the dialog covers the chat's Stop, so a call the
 * turn asks about offers "Stop the turn", reached from the keyboard, which denies that call (the server never gets
 * it; the audit says denied) and stops the turn before the model hears of the denial. The API stops from no question
 * but one the running turn asked.
 */
import { describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { startChatTurn, tabTo, waitForAnswersToTakeInput } from '../helpers/chat-page.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

const running = useScriptedUiInChromium(
  'mcp-host-ui-stop-',
  {
    scenarios: [
      {
        match: 'add',
        turns: [
          { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }] },
          { text: 'The model heard: {{lastToolResult}}' },
        ],
      },
    ],
  },
  { mcpServers: { calculator: trustedCalculator }, permissions: { ask: ['calculator__add_numbers'] } },
);

describe('the approval dialog of a call the chat turn asks about', () => {
  it('stops the turn from the keyboard, denying the call, and the model is not asked again', async () => {
    const { page, ui } = running();
    await startChatTurn(page, 'add them');
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    // Stop is on the page, under the dialog.
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(1);

    const stop = dialog.getByRole('button', { name: 'Stop the turn' });
    expect(await stop.getAttribute('aria-describedby')).not.toBeNull();
    // From the question's title, where the focus starts, to the button by Tab alone, and pressed with Enter once the
    // answers take input.
    const title = dialog.getByRole('heading', { name: 'A tool call needs your approval' });
    expect(await title.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await waitForAnswersToTakeInput(dialog);
    expect(await tabTo(page, 'Stop the turn')).toBe('Stop the turn');
    await page.keyboard.press('Enter');

    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await page.getByRole('button', { name: 'Send' }).waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await page.locator('.turn').getByText('The model heard').count()).toBe(0);

    // A stopped call's record is written as the call settles, which may be after the page shows Send again.
    await waitUntil(
      async () => (await auditRecords(ui.stateDir)).some((record) => record.type === 'tool-call'),
      'the stopped call to be recorded',
    );
    const records = await auditRecords(ui.stateDir);
    const calls = records.filter((record) => record.type === 'tool-call');
    // Denied, and ended by the cancel that came with the denial: the call never went to the server.
    expect(calls.map(({ tool, decision, outcome, error }) => ({ tool, decision, outcome, error }))).toEqual([
      { tool: 'calculator__add_numbers', decision: 'deny', outcome: 'cancelled', error: 'User denied this call.' },
    ]);
    expect(records.filter((record) => record.type === 'approval').map((record) => record.answer)).toEqual(['deny']);
  }, 60_000);

  it('is refused for a question that is not of the running turn', async () => {
    const answer = await callUiApi(running().ui, '/api/chat/stop', { approval: 'no-such-question' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: "No question of the chat's running turn waits under that id." });
  });
});
