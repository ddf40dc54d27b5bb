/**
 * Stopping a chat turn from the approval dialog, in real Chromium: the dialog covers the chat's Stop, so a call the
 * turn asks about offers "Stop the turn", reached from the keyboard, which denies that call (the server never gets
 * it; the audit says denied) and stops the turn before the model hears of the denial. The API stops from no question
 * but one the running turn asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { exampleServer, writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

let running: UiInChromium | undefined;

beforeAll(async () => {
  const config = await writeScriptedConfig(
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
    {
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
      permissions: { ask: ['calculator__add_numbers'] },
    },
  );
  running = await startUiInChromium(['--config', config]);
}, 90_000);

afterAll(async () => {
  await running?.stop();
});

describe('the approval dialog of a call the chat turn asks about', () => {
  it('stops the turn from the keyboard, denying the call, and the model is not asked again', async () => {
    const page = running!.page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('add them');
    await page.getByRole('button', { name: 'Send' }).click();
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    // Stop is on the page, under the dialog.
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(1);

    const stop = dialog.getByRole('button', { name: 'Stop the turn' });
    expect(await stop.getAttribute('aria-describedby')).not.toBeNull();
    // From the question's title, where the focus starts, to the button by Tab alone, and pressed with Enter once the
    // answers take input.
    const focused = () => page.evaluate<string | undefined>('document.activeElement?.textContent');
    const title = dialog.getByRole('heading', { name: 'A tool call needs your approval' });
    expect(await title.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await dialog
      .locator('button[aria-disabled]')
      .first()
      .waitFor({ state: 'detached', ...WAIT });
    for (let tabs = 0; tabs < 20 && (await focused()) !== 'Stop the turn'; tabs++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Stop the turn');
    await page.keyboard.press('Enter');

    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await page.getByRole('button', { name: 'Send' }).waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await page.locator('.turn').getByText('The model heard').count()).toBe(0);

    // A stopped call's record is written as the call settles, which may be after the page shows Send again.
    await waitUntil(
      async () => (await auditRecords(running!.ui.stateDir)).some((record) => record.type === 'tool-call'),
      'the stopped call to be recorded',
    );
    const records = await auditRecords(running!.ui.stateDir);
    const calls = records.filter((record) => record.type === 'tool-call');
    // Denied, and ended by the cancel that came with the denial: the call never went to the server.
    expect(calls.map(({ tool, decision, outcome, error }) => ({ tool, decision, outcome, error }))).toEqual([
      { tool: 'calculator__add_numbers', decision: 'deny', outcome: 'cancelled', error: 'User denied this call.' },
    ]);
    expect(records.filter((record) => record.type === 'approval').map((record) => record.answer)).toEqual(['deny']);
  }, 60_000);

  it('is refused for a question that is not of the running turn', async () => {
    const answer = await callUiApi(running!.ui, '/api/chat/stop', { approval: 'no-such-question' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: "No question of the chat's running turn waits under that id." });
  });
});
