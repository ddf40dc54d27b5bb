/**
 * The web UI's chat in real Chromium with a model that gives its calls the same id at every answer, as local
 * OpenAI-compatible servers do (`call_0`): each call is shown with its own request and its own result while the turn
 * runs, not the later call's, and after a reload as the transcript pairs them.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleServer, writeConfig } from '../helpers/project.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };

let started: UiInChromium | undefined;

beforeAll(async () => {
  const config = await writeConfig({
    model: 'scripted:script.json',
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    permissions: { allow: ['calculator__add_numbers', 'calculator__divide'] },
  });
  await writeFile(
    join(dirname(config), 'script.json'),
    JSON.stringify({
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

describe('a model that repeats its call id across its answers', () => {
  it('shows each call with its own request and result, live and after a reload', async () => {
    const page = started!.page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('One id twice');
    await page.getByRole('button', { name: 'Send' }).click();
    const live = page.locator('.turn');
    await live.getByText('Both answered.').waitFor(WAIT);

    const added = live.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' });
    const divided = live.getByRole('article', { name: 'Tool call calculator__divide [2]' });
    // The later call of the same id ended in an error: the earlier one keeps its own outcome.
    expect(await added.locator('header .badge').textContent()).toBe('ok');
    expect(await divided.locator('header .badge').textContent()).toBe('error');
    expect(await translation(added, '2. The tools/call request')).toContain('b: 7');
    expect(await translation(divided, '2. The tools/call request')).toContain('b: 0');
    const addedResult = await translation(added, '3. The result as the provider got it');
    expect(addedResult).toContain('toolName: "calculator__add_numbers"');
    expect(addedResult).toContain('isError: false');
    const dividedResult = await translation(divided, '3. The result as the provider got it');
    expect(dividedResult).toContain('toolName: "calculator__divide"');
    expect(dividedResult).toContain('isError: true');

    await page.reload();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
    const earlier = page.getByRole('list', { name: 'Earlier messages' });
    const addedSaved = earlier.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' });
    await addedSaved.waitFor(WAIT);
    expect(await addedSaved.locator('.call-result').textContent()).toMatch(/^result\s+12$/);
    const dividedSaved = earlier.getByRole('article', { name: 'Tool call calculator__divide [2]' });
    expect(await dividedSaved.locator('.call-result').textContent()).toMatch(/^error\s+.*division by zero/);
  }, 120_000);
});
