/**
 * The web UI's chat in real Chromium with a model that gives its calls the same id at every answer, as local
 * OpenAI-compatible servers do (`call_0`): each call is shown with its own request and its own result while the turn
 * runs, not the later call's, and after a reload as the transcript pairs them.
 */
import { describe, expect, it } from 'vitest';
import {
  callCard,
  callCardOutcome,
  callCardTranslation,
  reloadToEarlierMessages,
  sendInChat,
} from '../helpers/chat-page.js';
import { exampleServer } from '../helpers/project.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

const started = useScriptedUiInChromium(
  'mcp-host-ui-chat-',
  {
    fallbackText: 'Noted.',
    scenarios: [
      {
        match: 'One id twice',
        turns: [
          { toolCalls: [{ id: 'call_0', name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }] },
          { toolCalls: [{ id: 'call_0', name: 'calculator__divide', arguments: { a: 1, b: 0 } }] },
          { text: 'Both answered.' },
        ],
      },
    ],
  },
  {
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    permissions: { allow: ['calculator__add_numbers', 'calculator__divide'] },
  },
);

describe('a model that repeats its call id across its answers', () => {
  it('shows each call with its own request and result, live and after a reload', async () => {
    const page = started().page;
    const live = await sendInChat(page, 'One id twice', 'Both answered.', WAIT);

    const added = callCard(live, 'calculator__add_numbers [1]');
    const divided = callCard(live, 'calculator__divide [2]');
    // The later call of the same id ended in an error: the earlier one keeps its own outcome.
    expect(await callCardOutcome(added)).toBe('ok');
    expect(await callCardOutcome(divided)).toBe('error');
    expect(await callCardTranslation(added, '2. The tools/call request')).toContain('b: 7');
    expect(await callCardTranslation(divided, '2. The tools/call request')).toContain('b: 0');
    const addedResult = await callCardTranslation(added, '3. The result as the provider got it');
    expect(addedResult).toContain('toolName: "calculator__add_numbers"');
    expect(addedResult).toContain('isError: false');
    const dividedResult = await callCardTranslation(divided, '3. The result as the provider got it');
    expect(dividedResult).toContain('toolName: "calculator__divide"');
    expect(dividedResult).toContain('isError: true');

    const earlier = await reloadToEarlierMessages(page);
    const addedSaved = callCard(earlier, 'calculator__add_numbers [1]');
    await addedSaved.waitFor(WAIT);
    expect(await addedSaved.locator('.call-result').textContent()).toMatch(/^result\s+12$/);
    const dividedSaved = callCard(earlier, 'calculator__divide [2]');
    expect(await dividedSaved.locator('.call-result').textContent()).toMatch(/^error\s+.*division by zero/);
  }, 120_000);
});
