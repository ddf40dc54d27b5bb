/**
 * A chat call with an MCP Apps view whose server's result is too large to send the page in one event, in real
 * Chromium: the call's end reaches the page without the result, so the view is told the result will not come (the
 * extension's tool-cancelled notification, with the reason), where it waited for it as long as the page was open.
 */
import { describe, expect, it } from 'vitest';
import { callCard, callCardOutcome, callCardView, sendInChat } from '../helpers/chat-page.js';
import { fixtureServer, trustedServer } from '../helpers/project.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

const running = useScriptedUiInChromium(
  'mcp-host-ui-view-large-result-',
  {
    scenarios: [
      {
        match: 'count',
        // Past the 400,000 characters of one event.
        turns: [
          { toolCalls: [{ name: 'views__counter', arguments: { start: 3, pad: 450_000 } }] },
          { text: 'Counted.' },
        ],
      },
    ],
  },
  { mcpServers: { views: trustedServer(fixtureServer('app-views.mjs')) }, permissions: { allow: ['views__counter'] } },
);

describe('a chat call whose view’s result is too large for the page', () => {
  it('tells the view the result will not come', async () => {
    const live = await sendInChat(running().page, 'count now', 'Counted.', WAIT);
    const card = callCard(live, 'views__counter [1]');
    expect(await callCardOutcome(card)).toBe('ok');
    const view = callCardView(card, 'views__counter');
    await view.locator('#input').getByText('{"start":3,"pad":450000}').waitFor(WAIT);
    await view.locator('#result').getByText('cancelled: the result was too large to send to the page').waitFor(WAIT);
  }, 90_000);
});
