/**
 * A turn that fails with a long error, in real Chromium: the model's service may answer an error of any length (its
 * own words are quoted), and the page is sent it cut as every long text is, with how much was left out.
 */
import { describe, expect, it } from 'vitest';
import { startChatTurn } from '../helpers/chat-page.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const LONG_MESSAGE = `refused: ${'x'.repeat(300_000)}`;

const running = useScriptedUiInChromium(
  'mcp-host-ui-long-error-',
  // Not a status tried again: the turn fails at once.
  { scenarios: [{ match: 'fail', turns: [{ error: { status: 400, message: LONG_MESSAGE } }] }] },
  { mcpServers: {} },
);

describe('a chat turn that fails with a long error', () => {
  it('shows the error cut, saying how much was left out', async () => {
    const page = running().page;
    await startChatTurn(page, 'fail now');
    const error = page.locator('.turn .error');
    await error.waitFor(WAIT);
    const shown = (await error.textContent()) ?? '';
    expect(shown).toContain('Scripted provider error 400: refused: xxx');
    expect(shown).toMatch(/ … \(\d+ more characters\)$/);
    expect(shown.length).toBeLessThan(60_000);
  }, 90_000);
});
