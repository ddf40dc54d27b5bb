/**
 * A request to the provider too large to send a page whole (a long conversation, a large catalog) reaches the chat
 * page without its body, in real Chromium: a call card's translations that would be read from it say so, where they
 * said the tool's definition and the call's result were not found in it.
 */
import { describe, expect, it } from 'vitest';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { callCard, callCardTranslation, sendInChat } from '../helpers/chat-page.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
/** Past the 400,000 characters of one event the page is sent: every request of the turn carries the prompt. */
const LONG_PROMPT = `add ${'x'.repeat(450_000)}`;

const running = useScriptedUiInChromium(
  'mcp-host-ui-large-request-',
  {
    scenarios: [
      {
        match: '^add',
        turns: [
          { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 2, b: 3 } }] },
          { text: 'Added them.' },
        ],
      },
    ],
  },
  { mcpServers: { calculator: trustedCalculator }, permissions: { allow: ['calculator__add_numbers'] } },
);

describe('a call whose provider requests were too large to send the page', () => {
  it('says so in the translations read from them', async () => {
    const live = await sendInChat(running().page, LONG_PROMPT, 'Added them.', WAIT);
    const card = callCard(live, 'calculator__add_numbers [1]');
    const definition = await callCardTranslation(card, '1. The tool as the provider got it');
    expect(definition).toContain('too large to send to the page');
    expect(definition).not.toContain('not found');
    // The tools/call request is an event of its own, small: it shows whole.
    expect(await callCardTranslation(card, '2. The tools/call request')).toContain('a: 2');
    const result = await callCardTranslation(card, '3. The result as the provider got it');
    expect(result).toContain('too large to send to the page');
    expect(result).not.toContain('not found');
  }, 90_000);
});
