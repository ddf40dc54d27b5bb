/**
 * The web UI's chat in real Chromium with a model whose one answer gives two calls the same id, run side by side, the
 * first answered (with a tool error) only after the second: each card shows its own result while the turn runs, paired by its place in
 * the answer rather than by the id, and after a reload as the transcript pairs them.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, writeConfig } from '../helpers/project.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

let started: UiInChromium | undefined;

beforeAll(async () => {
  const config = await writeConfig({
    model: 'scripted:script.json',
    mcpServers: { told: { command: process.execPath, args: [fixtureServer('answers-as-told.mjs')], trust: 'trusted' } },
    permissions: { allow: ['told__in-turn'] },
  });
  await writeFile(
    join(dirname(config), 'script.json'),
    JSON.stringify({
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
    }),
  );
  started = await startUiInChromium(['--config', config]);
}, 90_000);

afterAll(async () => {
  await started?.stop();
});

/** The text of the card's translation headed `heading`, once its translations are open. */
async function translation(card: Locator, heading: string): Promise<string> {
  const button = card.getByRole('button', { name: /Show the three translations/ });
  if ((await button.count()) > 0) await button.click();
  const section = card.locator('section').filter({ has: card.page().getByRole('heading', { name: heading }) });
  return (await section.textContent()) ?? '';
}

describe('a model that gives two calls of one answer the same id', () => {
  it('shows each call with its own result, live and after a reload', async () => {
    const page = started!.page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('One id in one answer');
    await page.getByRole('button', { name: 'Send' }).click();
    const live = page.locator('.turn');
    await live.getByText('Both answered.').waitFor(WAIT);

    const slow = live.getByRole('article', { name: 'Tool call told__in-turn [1]' });
    const quick = live.getByRole('article', { name: 'Tool call told__in-turn [2]' });
    // The second call ended first, and well: the first keeps its own outcome, an error.
    expect(await slow.locator('header .badge').textContent()).toBe('error');
    expect(await quick.locator('header .badge').textContent()).toBe('ok');
    expect(await translation(slow, '2. The tools/call request')).toContain('after: "quick answer"');
    expect(await translation(quick, '2. The tools/call request')).not.toContain('after');

    await page.reload();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
    const earlier = page.getByRole('list', { name: 'Earlier messages' });
    const slowSaved = earlier.getByRole('article', { name: 'Tool call told__in-turn [1]' });
    await slowSaved.waitFor(WAIT);
    expect(await slowSaved.locator('.call-result').textContent()).toMatch(/^error\s+slow answer$/);
    const quickSaved = earlier.getByRole('article', { name: 'Tool call told__in-turn [2]' });
    expect(await quickSaved.locator('.call-result').textContent()).toMatch(/^result\s+quick answer$/);
  }, 120_000);
});
