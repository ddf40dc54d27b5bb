/**
 * The web UI in Chromium against a server, named in the config with a zero-width space (U+200B), whose tools, prompts
 * and resources come in pairs whose names differ only by one. Nothing shows that character, so each name a user
 * picks or compares by shows it as an escape (`\u200b`): the two of a pair read differently in the lists, the
 * approval dialog, the Audit page's rows and filters and the chat's tool-call cards, and what is sent back is the
 * exact name. The tests run in order, on one page.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { startChatTurn } from '../helpers/chat-page.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { invisibleIn } from '../helpers/invisible-in.js';
import { repoRoot } from '../helpers/project.js';
import { useScriptedUiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const TEST_TIMEOUT_MS = 60_000;
const SERVER = 'look\u200balike';
/** The names the model sees: made of `[A-Za-z0-9_-]`, so they differ even where the server's do not show it. */
const PLAIN_TOOL = 'look_alike__delete_file';
const HIDING_TOOL = 'look_alike__delete__file';
const lookAlikeServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'look-alike-names-server.mjs'));

/** An element's text and the names it and its descendants are read out by. */
async function shownText(element: Locator): Promise<string> {
  return element.evaluate((root) =>
    [root.textContent ?? '', ...[root, ...root.querySelectorAll('*')].map((e) => e.getAttribute('aria-label') ?? '')]
      .filter((text) => text !== '')
      .join('\n'),
  );
}

/** The server's own name of the tool on show, from its details. */
async function shownOriginalName(page: Page): Promise<string> {
  const detail = page
    .locator('.tool-detail dt', { hasText: 'The server calls it' })
    .locator('xpath=following-sibling::dd[1]');
  return (await detail.textContent()) ?? '';
}

// A model that calls each tool in turn, then one by a name with the zero-width space.
const running = useScriptedUiInChromium(
  'mcp-host-ui-look-alike-',
  {
    scenarios: [
      {
        turns: [
          { toolCalls: [{ id: 'c1', name: PLAIN_TOOL }] },
          { toolCalls: [{ id: 'c2', name: HIDING_TOOL }] },
          { toolCalls: [{ id: 'c3', name: 'look_alike__delete\u200b_file' }] },
          { text: 'answer-marker' },
        ],
      },
    ],
  },
  {
    mcpServers: { [SERVER]: { command: process.execPath, args: [lookAlikeServer], trust: 'trusted' } },
    permissions: { ask: [PLAIN_TOOL, HIDING_TOOL] },
  },
);

describe('the web UI and names that differ only by a zero-width space', () => {
  it(
    'lists the two tools apart, and shows their server and the name its server calls each by with the escape',
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Tools');
      const list = page.getByRole('complementary', { name: 'Tool list' });
      await list.getByRole('button', { name: new RegExp(`^${HIDING_TOOL}`) }).waitFor(WAIT);
      expect(await list.getByRole('row', { name: /look/ }).locator('td').first().textContent()).toBe(
        'look\\u200balike',
      );

      await list.getByRole('button', { name: new RegExp(`^${PLAIN_TOOL}`) }).click();
      await page.getByRole('heading', { level: 2, name: PLAIN_TOOL }).waitFor(WAIT);
      const plain = await shownOriginalName(page);
      await list.getByRole('button', { name: new RegExp(`^${HIDING_TOOL}`) }).click();
      await page.getByRole('heading', { level: 2, name: HIDING_TOOL }).waitFor(WAIT);
      const hiding = await shownOriginalName(page);
      expect([plain, hiding]).toEqual(['delete_file', 'delete\\u200b_file']);
      expect(invisibleIn(await shownText(page.locator('main')))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "asks about the model's call of each with the two told apart, and shows its cards and records with the escape",
    async () => {
      const { page } = running();
      await startChatTurn(page, 'Delete it');
      const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
      const asked: string[] = [];
      for (const tool of [PLAIN_TOOL, HIDING_TOOL]) {
        await dialog.getByText(`Server look\\u200balike · tool ${tool}`).waitFor(WAIT);
        asked.push(await shownText(dialog));
        await dialog.getByRole('button', { name: 'Deny', disabled: false }).click();
        await dialog.getByText(`Server look\\u200balike · tool ${tool}`).waitFor({ state: 'detached', ...WAIT });
      }
      await page.getByText('answer-marker').waitFor(WAIT);
      const card = page.getByRole('article', { name: 'Tool call look_alike__delete\\u200b_file' });
      expect(await card.locator('header strong').textContent()).toBe('look_alike__delete\\u200b_file');
      expect(asked.map(invisibleIn)).toEqual([[], []]);
      expect(asked[0]).not.toEqual(asked[1]);
      expect(asked[0]).not.toContain('delete\\u200b_file');
      expect(asked[1]).toContain('delete\\u200b_file');

      await goToUiPage(page, 'Audit');
      const server = page.getByRole('combobox', { name: 'Server' });
      await server.locator('option', { hasText: 'look\\u200balike' }).waitFor({ state: 'attached', ...WAIT });
      await server.selectOption({ label: 'look\\u200balike' });
      expect(await server.inputValue()).toBe(SERVER);
      const rows = page.locator('table.audit tbody tr').filter({ hasText: 'denied' });
      await rows.nth(1).waitFor(WAIT);
      expect(new Set(await rows.locator('td:nth-child(3)').allTextContents())).toEqual(new Set(['look\\u200balike']));
      // The names in each record's cells and in the record itself (JSON, with the escape a JSON escape).
      const tools = await rows.locator('td:nth-child(4)').allTextContents();
      expect(new Set(tools)).toEqual(new Set([PLAIN_TOOL, HIDING_TOOL]));
      const records = await rows.locator('pre').allTextContents();
      expect(invisibleIn(records.join('\n'))).toEqual([]);
      expect(records.map((record) => (JSON.parse(record) as { server: string }).server)).toEqual([SERVER, SERVER]);
      expect(invisibleIn(await shownText(page.getByRole('form', { name: 'Filters' })))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'lists the two prompts and resources apart, and gets the one picked by its exact name',
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Resources & prompts');
      const resources = page.getByRole('region', { name: 'Resources' });
      await resources.getByRole('button', { name: /^no\\u200btes/ }).waitFor(WAIT);
      await resources.getByRole('button', { name: /^notes/ }).waitFor(WAIT);
      const prompt = page.getByRole('form', { name: 'Prompt bri\\u200bef' });
      await page.getByRole('form', { name: 'Prompt brief' }).waitFor(WAIT);
      await prompt.getByRole('button', { name: 'Get prompt bri\\u200bef' }).click();
      await prompt.getByText('"prompt bri<U+200B>ef"').waitFor(WAIT);
      expect(invisibleIn(await shownText(page.locator('main')))).toEqual([]);

      for (const label of ['Servers', 'Trust']) {
        await goToUiPage(page, label);
        await page.getByRole('heading', { level: 2, name: /^look\\u200balike/ }).waitFor(WAIT);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
