/**
 * The web UI in Chromium against a server whose values to be sent back hide characters: a direction override
 * (U+202E, so `safe\u202efdp.exe` reads `safeexe.pdf`) and a zero-width space, in its tool's argument defaults and
 * choices, the suggestions completion offers for a prompt's argument and a template's variable, and the default and
 * choices of the form it asks for. Each field keeps the exact value and, holding hidden characters, is marked and
 * says so beneath it with them as escapes; each choice is listed with them as escapes; JSON shows them as JSON
 * escapes; and the server receives exactly what it gave (it answers with every such character as `<U+XXXX>`).
 */
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixtureServerLaunch } from '../fixtures/servers/fixture-servers.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { repoRoot, writeConfig } from '../helpers/project.js';
import { startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const TEST_TIMEOUT_MS = 60_000;
const HIDDEN = /[\u202a-\u202e\u2066-\u2069\u200b]/u;
const SPOOFED = 'safe\u202efdp.exe';
/** A server name, as a config may choose it: the Audit page filters by it. */
const SPOOFED_SERVER = 'spoof\u202efdp.exe';
const hiddenValuesServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'hidden-values-server.mjs'));

/** The field's value exactly, and the notice that describes it (none when it reads as it is). */
async function fieldShows(field: Locator): Promise<{ value: string; marked: boolean; notice: string | undefined }> {
  const noticeId = await field.getAttribute('aria-describedby');
  return {
    value: await field.inputValue(),
    marked: (await field.getAttribute('data-hidden-characters')) !== null,
    notice: noticeId === null ? undefined : ((await field.page().locator(`[id="${noticeId}"]`).textContent()) ?? ''),
  };
}

/** The texts a select lists, after checking that none holds a hidden character. */
async function listedChoices(select: Locator): Promise<string[]> {
  const labels = await select.locator('option').allTextContents();
  expect(labels.filter((label) => HIDDEN.test(label))).toEqual([]);
  return labels;
}

const running = useAroundTests(async () => {
  const config = await writeConfig({
    mcpServers: {
      hidden: { command: process.execPath, args: [hiddenValuesServer], trust: 'trusted' },
      [SPOOFED_SERVER]: { ...fixtureServerLaunch('counter'), trust: 'trusted' },
    },
    permissions: { allow: ['hidden__echo', 'hidden__ask'] },
  });
  return startUiInChromium(['--config', config]);
});

describe('the web UI and values to send that hide characters', () => {
  it(
    "fills a tool's form with the schema's defaults exactly, shows what they hide, and the server receives them",
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Tools');
      await page.getByRole('button', { name: /^hidden__echo/ }).click();
      const file = page.getByRole('textbox', { name: 'file', exact: true });
      expect(await fieldShows(file)).toEqual({
        value: SPOOFED,
        marked: true,
        notice: 'Contains hidden characters: safe\\u202efdp.exe',
      });
      expect(await fieldShows(page.getByRole('textbox', { name: 'note', exact: true }))).toEqual({
        value: 'admin\u200b',
        marked: true,
        notice: 'Contains hidden characters: admin\\u200b',
      });
      const mode = page.getByRole('combobox', { name: 'mode' });
      expect(await listedChoices(mode)).toEqual(['(none)', 'plain', 'mirrored\\u202eexe.txt']);
      await mode.selectOption({ label: 'mirrored\\u202eexe.txt' });
      // A value the user types that reads as it is gets no notice.
      await page.getByRole('textbox', { name: 'note', exact: true }).fill('plain note');
      expect(await fieldShows(page.getByRole('textbox', { name: 'note', exact: true }))).toEqual({
        value: 'plain note',
        marked: false,
        notice: undefined,
      });

      await page.getByRole('button', { name: 'Call hidden__echo' }).click();
      const result = page.getByRole('region', { name: 'Result' });
      await result.getByText(/^received /).waitFor(WAIT);
      const answer = (await result.getByText(/^received /).textContent()) ?? '';
      expect(JSON.parse(answer.slice('received '.length))).toEqual({
        file: 'safe<U+202E>fdp.exe',
        note: 'plain note',
        mode: 'mirrored<U+202E>exe.txt',
      });

      // As raw JSON the hidden characters are JSON escapes, which read back as themselves.
      await page.getByLabel('Raw JSON').check();
      const raw = page.getByRole('textbox', { name: 'Arguments (JSON object)' });
      const text = await raw.inputValue();
      expect(text).not.toMatch(HIDDEN);
      expect(text).toContain('"file": "safe\\u202efdp.exe"');
      expect(JSON.parse(text)).toEqual({ file: SPOOFED, note: 'plain note', mode: 'mirrored\u202eexe.txt' });
      await raw.fill(text.replace('plain note', 'raw\\u200bnote'));
      await page.getByRole('button', { name: 'Call hidden__echo' }).click();
      await result.getByText(/"note":"raw<U\+200B>note"/).waitFor(WAIT);
      expect(await result.getByText(/^received /).textContent()).toContain('"file":"safe<U+202E>fdp.exe"');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "offers completion's suggestions that hide characters with them as escapes, and sends the one chosen exactly",
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Resources & prompts');
      const prompt = page.getByRole('form', { name: 'Prompt brief' });
      const topic = prompt.getByRole('combobox', { name: 'topic' });
      await topic.fill('s');
      const spoofed = prompt.getByRole('button', { name: 'safe\\u202efdp.exe', exact: true });
      await spoofed.waitFor(WAIT);
      // The browser's own list shows values raw: it offers only the one that reads as it is.
      expect(
        await prompt.locator('datalist option').evaluateAll((options) => options.map((o) => o.getAttribute('value'))),
      ).toEqual(['plain-topic']);
      await spoofed.click();
      expect(await fieldShows(topic)).toEqual({
        value: SPOOFED,
        marked: true,
        notice: 'Contains hidden characters: safe\\u202efdp.exe',
      });
      await prompt.getByRole('button', { name: 'Get prompt brief' }).click();
      await prompt.getByText('"brief on safe<U+202E>fdp.exe"').waitFor(WAIT);

      const template = page.getByRole('form', { name: 'Template shelf' });
      const name = template.getByRole('combobox', { name: 'name' });
      await name.fill('s');
      await template.getByRole('button', { name: 'safe\\u202efdp.exe', exact: true }).click();
      expect((await fieldShows(name)).value).toBe(SPOOFED);
      await template.getByRole('button', { name: 'Read shelf' }).click();
      await page.getByRole('region', { name: 'Result' }).getByText('read safe<U+202E>fdp.exe').waitFor(WAIT);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "fills a server's form with its default exactly, shows what it hides, and the server receives it",
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Tools');
      await page.getByRole('button', { name: /^hidden__ask/ }).click();
      await page.getByRole('button', { name: 'Call hidden__ask' }).click();
      const dialog = page.getByRole('dialog', { name: 'A server asks you to fill in a form' });
      await dialog.waitFor(WAIT);
      expect(await fieldShows(dialog.getByRole('textbox', { name: /^File/ }))).toEqual({
        value: SPOOFED,
        marked: true,
        notice: 'Contains hidden characters: safe\\u202efdp.exe',
      });
      const mode = dialog.getByRole('combobox', { name: 'Mode' });
      expect(await listedChoices(mode)).toEqual(['(none)', 'plain', 'mirrored\\u202eexe.txt']);
      await mode.selectOption({ label: 'mirrored\\u202eexe.txt' });
      await dialog.getByRole('button', { name: 'Send', disabled: false }).click();
      await dialog.waitFor({ state: 'hidden', ...WAIT });
      const result = page.getByRole('region', { name: 'Result' });
      await result.getByText(/^received /).waitFor(WAIT);
      const answer = (await result.getByText(/^received /).textContent()) ?? '';
      expect(JSON.parse(answer.slice('received '.length))).toEqual({
        action: 'accept',
        content: { file: 'safe<U+202E>fdp.exe', mode: 'mirrored<U+202E>exe.txt' },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "lists a server whose name hides characters among the Audit page's filters with them as escapes, and filters by the exact name",
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Audit');
      const server = page.getByRole('combobox', { name: 'Server' });
      await server.locator('option', { hasText: 'spoof\\u202efdp.exe' }).waitFor({ state: 'attached', ...WAIT });
      expect(await listedChoices(server)).toContain('spoof\\u202efdp.exe');
      await server.selectOption({ label: 'spoof\\u202efdp.exe' });
      expect(await server.inputValue()).toBe(SPOOFED_SERVER);
      // Its records, and no other server's, are left: the filter compares the exact name.
      const rows = page.locator('table.audit tbody tr');
      await rows.first().waitFor(WAIT);
      const servers = await rows.locator('td:nth-child(3)').allTextContents();
      expect(new Set(servers)).toEqual(new Set(['spoof\\u202efdp.exe']));
    },
    TEST_TIMEOUT_MS,
  );
});
