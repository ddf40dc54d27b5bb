/**
 * A page in real Chromium that stops reading its event stream (its JavaScript paused, as in a frozen tab) while the
 * host publishes far more than the host keeps waiting for it: the host closes that stream, the browser reconnects
 * once the page runs again, and the page loads what it shows afresh, so a record written while it was cut off shows
 * without a reload by hand.
 */
import { describe, expect, it } from 'vitest';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { writeScriptedConfig } from '../helpers/project.js';
import { openUiPage, startUiAndChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';
import { callUiApi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

/** The page's event stream, whatever its address's query (the token). */
const isEventStream = (url: URL): boolean => url.pathname === '/api/events';

// As in the API test of the same bound: each turn's events carry this much text, far past what waits are allowed.
const ANSWER_CHARS = 1_200_000;
const TURNS = 30;

const started = useAroundTests(async () => {
  const config = await writeScriptedConfig(
    'mcp-host-ui-reconnect-',
    { scenarios: [], fallbackText: 'x'.repeat(ANSWER_CHARS) },
    { mcpServers: { calculator: trustedCalculator }, permissions: { allow: ['calculator__*'] } },
  );
  return startUiAndChromium(['--config', config]);
});

describe('a page whose event stream the host closed because it stopped reading', () => {
  it('reconnects and loads the audit again, showing the call made while it was cut off', async () => {
    const running = started().ui;
    const { context, page } = await openUiPage(started());
    await goToUiPage(page, 'Audit');

    // The page reads nothing more while its JavaScript is paused, and the stream it may open again once the host closes
    // its first is refused until then: the call below is made while the page follows nothing, so only loading the
    // audit again shows it.
    await page.route(isEventStream, (route) => route.abort());
    const debug = await context.newCDPSession(page);
    await debug.send('Debugger.enable');
    await debug.send('Debugger.pause');
    try {
      for (let turn = 0; turn < TURNS; turn += 1) {
        expect((await callUiApi(running, '/api/sessions/new', {})).status).toBe(200);
        expect((await callUiApi(running, '/api/chat', { text: 'talk' })).status).toBe(200);
        await waitForNoTurnRunning(running, 'the turn');
      }
      const called = await callUiApi(running, '/api/tools/call', {
        name: 'calculator__add_numbers',
        arguments: { a: 4242, b: 1 },
      });
      expect(called.status, JSON.stringify(called.body)).toBe(200);
    } finally {
      await page.unroute(isEventStream);
      await debug.send('Debugger.resume');
    }
    await page
      .getByRole('row')
      .filter({ hasText: 'calculator__add_numbers' })
      .filter({ hasText: '4242' })
      .first()
      .waitFor({ timeout: 30_000 });
  }, 240_000);
});
