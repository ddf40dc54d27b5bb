/**
 * A chat call whose arguments are too large to send the page in one event, in real Chromium: the call's start and
 * its tools/call request reach the page without them. The card's tools/call translation says so, where it showed no
 * arguments, and the call's MCP Apps view is told its input will not come (the extension's tool-cancelled
 * notification, with the reason), where it was sent the result with no input before it.
 */
import { describe, expect, it } from 'vitest';
import { callCard, callCardOutcome, callCardTranslation, callCardView, sendInChat } from '../helpers/chat-page.js';
import { fixtureServer, trustedServer } from '../helpers/project.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

const running = useScriptedUiInChromium(
  'mcp-host-ui-large-arguments-',
  {
    scenarios: [
      {
        match: 'count',
        // Past the 400,000 characters of one event.
        turns: [
          { toolCalls: [{ name: 'views__counter', arguments: { start: 3, note: 'x'.repeat(450_000) } }] },
          { text: 'Counted.' },
        ],
      },
    ],
  },
  { mcpServers: { views: trustedServer(fixtureServer('app-views.mjs')) }, permissions: { allow: ['views__counter'] } },
);

describe('a chat call whose arguments are too large for the page', () => {
  it('says so in its tools/call translation and tells its view the input will not come', async () => {
    const live = await sendInChat(running().page, 'count now', 'Counted.', WAIT);
    const card = callCard(live, 'views__counter [1]');
    expect(await callCardOutcome(card)).toBe('ok');
    const request = await callCardTranslation(card, '2. The tools/call request');
    expect(request).toContain('the arguments were too large to send to the page');
    expect(request).not.toContain('undefined');
    const view = callCardView(card, 'views__counter');
    await view
      .locator('#result')
      .getByText('cancelled: the arguments were too large to send to the page')
      .waitFor(WAIT);
    // The result came long before: a view is sent none without the input it follows.
    expect(await view.locator('#input').textContent()).toBe('(none yet)');
  }, 90_000);
});
