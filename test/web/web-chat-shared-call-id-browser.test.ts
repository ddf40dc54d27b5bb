/**
 * The web UI's chat in real Chromium with a model whose one answer gives two calls the same id, run side by side, the
 * first answered (with a tool error) only after the second: each card shows its own result while the turn runs, paired by its place in
 * the answer rather than by the id, and after a reload as the transcript pairs them.
 */
import { describe, expect, it } from 'vitest';
import {
  callCard,
  callCardOutcome,
  callCardTranslation,
  reloadToEarlierMessages,
  sendInChat,
} from '../helpers/chat-page.js';
import { fixtureServer } from '../helpers/project.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

const started = useScriptedUiInChromium(
  'mcp-host-ui-chat-',
  {
    fallbackText: 'Noted.',
    scenarios: [
      {
        match: 'One id in one answer',
        turns: [
          {
            toolCalls: [
              // The first ends last: it waits for the second's answer.
              {
                id: 'call_0',
                name: 'told__in-turn',
                arguments: { text: 'slow answer', after: 'quick answer', isError: true },
              },
              { id: 'call_0', name: 'told__in-turn', arguments: { text: 'quick answer' } },
            ],
          },
          { text: 'Both answered.' },
        ],
      },
    ],
  },
  {
    mcpServers: {
      told: { command: process.execPath, args: [fixtureServer('answers-as-told.mjs')], trust: 'trusted' },
    },
    permissions: { allow: ['told__in-turn'] },
  },
);

describe('a model that gives two calls of one answer the same id', () => {
  it('shows each call with its own result, live and after a reload', async () => {
    const page = started().page;
    const live = await sendInChat(page, 'One id in one answer', 'Both answered.', WAIT);

    const slow = callCard(live, 'told__in-turn [1]');
    const quick = callCard(live, 'told__in-turn [2]');
    // The second call ended first, and well: the first keeps its own outcome, an error.
    expect(await callCardOutcome(slow)).toBe('error');
    expect(await callCardOutcome(quick)).toBe('ok');
    expect(await callCardTranslation(slow, '2. The tools/call request')).toContain('after: "quick answer"');
    expect(await callCardTranslation(quick, '2. The tools/call request')).not.toContain('after');
    // The request after the answer carries both results: each card shows its own.
    const slowResult = await callCardTranslation(slow, '3. The result as the provider got it');
    expect(slowResult).toContain('slow answer');
    expect(slowResult).not.toContain('quick answer');
    const quickResult = await callCardTranslation(quick, '3. The result as the provider got it');
    expect(quickResult).toContain('quick answer');
    expect(quickResult).not.toContain('slow answer');

    const earlier = await reloadToEarlierMessages(page);
    const slowSaved = callCard(earlier, 'told__in-turn [1]');
    await slowSaved.waitFor(WAIT);
    expect(await slowSaved.locator('.call-result').textContent()).toMatch(/^error\s+slow answer$/);
    const quickSaved = callCard(earlier, 'told__in-turn [2]');
    expect(await quickSaved.locator('.call-result').textContent()).toMatch(/^result\s+quick answer$/);
  }, 120_000);
});
