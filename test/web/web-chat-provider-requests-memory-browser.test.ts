/**
 * What the chat page keeps of the requests to the provider, in real Chromium: each request carries the conversation
 * so far, so keeping every one for the translations a card may open grew a tab that followed a long conversation by
 * the whole conversation again at each model answer. The page keeps of them what the cards show (a tool's definition,
 * a call's result as the provider got it), and none of the requests once the turn has ended.
 */
import type { CDPSession } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { callCard, callCardTranslation, sendInChat } from '../helpers/chat-page.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 30_000 };
/** Model answers of the turn that call a tool, as many as a turn makes: each request carries the prompt again. */
const ANSWERS = 19;
/** Within the 400,000 characters of an event, so every request reaches the page whole. */
const PROMPT = `add ${'x'.repeat(350_000)}`;

const calls = Array.from({ length: ANSWERS }, (_, index) => ({
  toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: index, b: 1 } }],
}));
const running = useScriptedUiInChromium(
  'mcp-host-ui-requests-memory-',
  { scenarios: [{ match: '^add', turns: [...calls, { text: 'All added.' }] }] },
  { mcpServers: { calculator: trustedCalculator }, permissions: { allow: ['calculator__add_numbers'] } },
);

/** The page's JavaScript heap in use once garbage is collected, in bytes. */
async function heapInUse(session: CDPSession): Promise<number> {
  await session.send('HeapProfiler.collectGarbage');
  return (await session.send('Runtime.getHeapUsage')).usedSize;
}

describe('a chat turn of many model answers, each request carrying a long prompt', () => {
  it('leaves the page holding what its cards show, not every request', async () => {
    const page = running().page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor(WAIT);
    const session = await page.context().newCDPSession(page);
    await session.send('HeapProfiler.enable');
    const before = await heapInUse(session);

    const live = await sendInChat(page, PROMPT, 'All added.', WAIT);
    const grown = (await heapInUse(session)) - before;
    // Every request kept: the prompt 20 times over (7 MB). The prompt shown, the cards and the code that drew them:
    // the prompt some 4 times over.
    expect(grown, `the page's heap grew by ${grown} bytes`).toBeLessThan(8 * PROMPT.length);

    // The cards still show what they showed from the requests.
    const first = callCard(live, 'calculator__add_numbers [1]');
    expect(await callCardTranslation(first, '1. The tool as the provider got it')).toContain('add_numbers');
    const result = await callCardTranslation(first, '3. The result as the provider got it');
    expect(result).toContain('"1"');
    const last = callCard(live, `calculator__add_numbers [${ANSWERS}]`);
    expect(await callCardTranslation(last, '3. The result as the provider got it')).toContain(`"${ANSWERS}"`);
  }, 120_000);
});
