/**
 * The chat page's Stop, in real Chromium with two tabs on one conversation, stops the turn it was pressed on: when
 * that turn has ended and the other tab has started another before the stop reaches the host (staged by holding the
 * stop's request), the new turn goes on and the page says the turn it stopped had ended already.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatStateView } from '../../src/web/api-types.js';
import { auditRecords } from '../helpers/audit-records.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { waitForHangCalls } from '../helpers/hang-calls.js';
import { fixtureServer, writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { openUiPage, startUiAndChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

const started = useAroundTests(async () => {
  const config = await writeScriptedConfig(
    'mcp-host-ui-stop-shown-turn-',
    {
      scenarios: [
        // One step alone: each turn is stopped during it, so the next message starts the scenario again.
        { match: '^wait', turns: [{ toolCalls: [{ name: 'waits__hang', arguments: {} }] }] },
      ],
    },
    {
      mcpServers: { waits: { command: process.execPath, args: [fixtureServer('hang.mjs')], trust: 'trusted' } },
      permissions: { allow: ['waits__*'] },
    },
  );
  return startUiAndChromium(['--config', config]);
});

async function chatTab(): Promise<Page> {
  const { page } = await openUiPage(started());
  await goToUiPage(page, 'Chat', WAIT);
  return page;
}

async function runningTurn(): Promise<{ turnId: string; prompt: string } | undefined> {
  const running = (await callUiApi<ChatStateView>(started().ui, '/api/chat')).body.running;
  return running === undefined ? undefined : { turnId: running.turnId, prompt: running.prompt };
}

describe("two tabs on the chat, one's Stop on its way while the other starts a new turn", () => {
  it('stops nothing but the turn it was pressed on, and says that turn had ended already', async () => {
    const first = await chatTab();
    const second = await chatTab();

    await first.getByRole('textbox', { name: 'Message', exact: true }).fill('wait once');
    await first.getByRole('button', { name: 'Send' }).click();
    await waitForHangCalls(started().ui, 1);
    const shown = await runningTurn();
    expect(shown?.prompt).toBe('wait once');
    await second.locator('.turn').getByText('wait once').waitFor(WAIT);

    // The second tab's Stop is held on its way, until the turn it was pressed on has ended and another runs.
    let arrive!: (route: Route) => void;
    const arrived = new Promise<Route>((resolve) => {
      arrive = resolve;
    });
    await second.route('**/api/chat/cancel', (route) => arrive(route));
    await second.getByRole('button', { name: 'Stop', exact: true }).click();
    const held = await arrived;
    expect(held.request().postDataJSON()).toEqual({ turnId: shown!.turnId });

    await first.bringToFront();
    await first.getByRole('button', { name: 'Stop', exact: true }).click();
    await first.getByRole('button', { name: 'Send' }).waitFor(WAIT);
    await first.getByRole('textbox', { name: 'Message', exact: true }).fill('wait twice');
    await first.getByRole('button', { name: 'Send' }).click();
    await waitForHangCalls(started().ui, 2);
    const next = await runningTurn();
    expect(next?.prompt).toBe('wait twice');

    const response = await held.fetch();
    expect(await response.json()).toEqual({ cancelled: false });
    await held.fulfill({ response });
    await second.unroute('**/api/chat/cancel');
    await second.bringToFront();
    await second.getByRole('status').getByText('The turn you stopped had ended already').waitFor(WAIT);

    // The new turn runs on in both tabs, its call not cancelled, until the first tab stops it.
    expect(await runningTurn()).toEqual(next);
    await second.getByRole('button', { name: 'Stop', exact: true }).waitFor(WAIT);
    const hangOutcomes = async () =>
      (await auditRecords(started().ui.stateDir))
        .filter((record) => record.type === 'tool-call' && record.tool === 'waits__hang')
        .map((record) => record.outcome);
    // A stopped call's record is written as the call settles, which may be after its turn has ended.
    await waitUntil(async () => (await hangOutcomes()).length > 0, 'the first call to be recorded');
    expect(await hangOutcomes()).toEqual(['cancelled']);
    // Pressed on the turn running now, the same Stop stops it, and no longer says the one before had ended.
    await second.getByRole('button', { name: 'Stop', exact: true }).click();
    await second.getByRole('button', { name: 'Send' }).waitFor(WAIT);
    await waitUntil(async () => (await hangOutcomes()).length === 2, 'the second call to be recorded');
    expect(await hangOutcomes()).toEqual(['cancelled', 'cancelled']);
    expect(await second.getByText('The turn you stopped had ended already').count()).toBe(0);
  }, 120_000);
});
