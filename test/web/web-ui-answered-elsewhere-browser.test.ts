/**
 * Two tabs answering the same question, in real Chromium: the page's answer reaches the UI only after another tab's
 * did, and after the page has moved on to the next question and armed its answers. The refusal of the first answer
 * (no such question waits) is about a question no longer shown: the next question keeps taking answers, and shows
 * no error that is not its own.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/web/api-types.js';
import { auditRecords } from '../helpers/audit-records.js';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { startChatTurn, waitForAnswersToTakeInput } from '../helpers/chat-page.js';
import { waitUntil } from '../helpers/wait-until.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

const running = useScriptedUiInChromium(
  'mcp-host-ui-answered-elsewhere-',
  {
    scenarios: [
      {
        match: 'add',
        turns: [
          {
            toolCalls: [
              { name: 'calculator__add_numbers', arguments: { a: 1, b: 2 } },
              { name: 'calculator__add_numbers', arguments: { a: 3, b: 4 } },
            ],
          },
          { text: 'Both were answered.' },
        ],
      },
    ],
  },
  { mcpServers: { calculator: trustedCalculator }, permissions: { ask: ['calculator__add_numbers'] } },
);

describe('a question answered in another tab while this tab’s answer to it is on its way', () => {
  it('leaves the next question answerable, without the refusal meant for the first', async () => {
    const { page, ui } = running();
    await startChatTurn(page, 'add both');
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.getByText('1 more waiting after this one.').waitFor(WAIT);
    await waitForAnswersToTakeInput(dialog);
    const [first, second] = (await callUiApi<PendingApproval[]>(ui, '/api/approvals')).body;
    expect(second).toBeDefined();

    // This tab's answer to the first question is held on its way.
    let held: (route: Route) => void = () => undefined;
    const reached = new Promise<Route>((resolve) => {
      held = resolve;
    });
    await page.route(`**/api/approvals/${first!.id}`, (route) => held(route));
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    const route = await reached;

    // Another tab answers it first; this one shows the next question, whose answers take input after a moment.
    expect((await callUiApi(ui, `/api/approvals/${first!.id}`, { answer: 'allow-once' })).status).toBe(200);
    await dialog.getByText('1 more waiting after this one.').waitFor({ state: 'detached', ...WAIT });
    await waitForAnswersToTakeInput(dialog);

    // This tab's answer arrives now, to a question no longer waiting.
    const refused = page.waitForResponse((response) => response.url().endsWith(`/api/approvals/${first!.id}`));
    await route.continue();
    const refusal = await refused;
    expect(refusal.status()).toBe(409);
    await refusal.finished();
    // Two frames later the page has taken the refusal in (what it shows is drawn by then): an error shown for the
    // question on screen would be there.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await dialog.getByRole('alert').count()).toBe(0);

    // The question shown is answered from this tab.
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await page.locator('.turn').getByText('Both were answered.').waitFor(WAIT);
    await waitUntil(
      async () => (await auditRecords(ui.stateDir)).filter((record) => record.type === 'approval').length >= 2,
      'both approvals in the audit log',
    );
    const answers = (await auditRecords(ui.stateDir))
      .filter((record) => record.type === 'approval')
      .map((record) => record.answer);
    expect(answers).toEqual(['allow-once', 'allow-once']);
  }, 90_000);
});
