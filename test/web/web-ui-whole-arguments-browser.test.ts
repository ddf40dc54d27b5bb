/**
 * The approval dialog in real Chromium for a call whose arguments its view cuts: the middle is not shown at first,
 * "Show the whole arguments" shows all of them (as text, in a block that scrolls) below the answers without moving
 * them or answering, and the call is then approved or denied as clicked.
 */
import { describe, expect, it } from 'vitest';
import { startChatTurn } from '../helpers/chat-page.js';
import { fixtureServer, trustedServer } from '../helpers/project.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const TOOL = 'counter__echo';
/** Markup in the middle: shown as its characters, never made into elements. */
const MARKERS = ['first-middle-<b>marker</b>', 'second-middle-<b>marker</b>'];

/** Text of 10,000 characters with `marker` at its middle, far from the start and the end the view shows. */
function longText(marker: string): string {
  const half = 'x'.repeat((10_000 - marker.length) / 2);
  return `${half}${marker}${half}`.padEnd(10_000, 'x');
}

const running = useScriptedUiInChromium(
  'mcp-host-ui-whole-arguments-',
  {
    scenarios: [
      {
        turns: [
          ...MARKERS.map((marker) => ({ toolCalls: [{ name: TOOL, arguments: { text: longText(marker) } }] })),
          { text: 'both-calls-answered' },
        ],
      },
    ],
  },
  { mcpServers: { counter: trustedServer(fixtureServer('counter.mjs')) }, permissions: { ask: [TOOL] } },
);

describe('the approval dialog and arguments its view cuts', () => {
  it('shows the whole arguments on request, as text, without moving or pressing an answer', async () => {
    const { page } = running();
    await startChatTurn(page, 'Echo it');
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });

    for (const [index, marker] of MARKERS.entries()) {
      const show = dialog.getByRole('button', { name: 'Show the whole arguments' });
      await show.waitFor(WAIT);
      await dialog.getByText(/characters of the arguments not shown here/).waitFor(WAIT);
      expect(await dialog.textContent()).not.toContain(marker);
      const allow = dialog.getByRole('button', { name: 'Allow once' });
      // Where in the dialog, not in the window: the dialog scrolls to the block once it is shown.
      const place = () => allow.evaluate((element) => [element.offsetLeft, element.offsetTop]);
      const allowWhere = await place();

      // Pressed as soon as it shows (the answers may still take no click): it shows them, and answers nothing.
      await show.click();
      const whole = dialog.getByRole('region', { name: 'The whole arguments' });
      await whole.getByText(marker).waitFor(WAIT);
      expect(await whole.textContent()).toContain(`tool ${TOOL} on server counter`);
      expect(await whole.locator('b').count()).toBe(0);
      const block = whole.locator('pre');
      expect(await block.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      expect(await place()).toEqual(allowWhere);

      const answer = index === 0 ? 'Allow once' : 'Deny';
      await dialog.getByRole('button', { name: answer, disabled: false }).click();
      await whole.getByText(marker).waitFor({ state: 'detached', ...WAIT });
    }
    await page.getByText('both-calls-answered').waitFor(WAIT);
    const cards = page.getByRole('article', { name: `Tool call ${TOOL}` });
    await cards.nth(1).waitFor(WAIT);
    expect(await cards.nth(0).getByText('ok', { exact: true }).count()).toBe(1);
    expect(await cards.nth(1).getByText('denied', { exact: true }).count()).toBe(1);
  }, 60_000);
});
