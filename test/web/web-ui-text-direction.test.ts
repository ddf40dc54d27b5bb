/**
 * The web UI in Chromium against a server whose every string carries text-direction embedding, override and isolate
 * characters and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C). React renders them as text, and a
 * browser lays text out bidirectionally, so each would still reorder what is around it: every page that shows what the
 * server says — its name and version, tools, a call's progress message, results, resources, an error reading one,
 * prompts and their arguments' names, the form it asks for, a changed definition — shows each one as its escape
 * (`\u202e`), as the approval view does, and none of the characters themselves: in its text, in the attributes a
 * browser shows or reads out (labels, titles, alternative text), and in the suggestions completion offers. The tests
 * run in order, on one page.
 */
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { startChatTurn } from '../helpers/chat-page.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { repoRoot, writeScriptedConfig } from '../helpers/project.js';
import { startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';
import { writeSkill } from '../skills/skill-fixtures.js';

const WAIT = { timeout: 15_000 };
/** Per test: each waits on several things, each for up to WAIT. */
const TEST_TIMEOUT_MS = 60_000;
const DIRECTION_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** The three marks, as the server writes them after its other controls. */
const MARKS = '\u200fmarked\u200f \u061carabic\u061c \u200eleft\u200e';
const directionServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'text-direction-server.mjs'));

/** Attributes a browser shows (a tooltip, an image's stand-in, a hint) or reads out as an element's name. */
const SHOWN_ATTRIBUTES = [
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'alt',
  'placeholder',
  'label',
];

/**
 * The page's whole text (options of a list and closed details included), its title, its elements' shown attributes
 * and the suggestions of its completion lists, once `marker` is in them.
 */
async function pageTextWith(marker: string): Promise<string> {
  const shown = `(() => {
    const texts = [document.body.textContent, document.title];
    for (const element of document.querySelectorAll('*')) {
      for (const name of ${JSON.stringify(SHOWN_ATTRIBUTES)}) texts.push(element.getAttribute(name) ?? '');
    }
    for (const option of document.querySelectorAll('datalist option')) texts.push(option.value);
    return texts.join('\\n');
  })()`;
  const { page } = running();
  await expect.poll(async () => (await page.evaluate(shown)) as string, WAIT).toContain(marker);
  return (await page.evaluate(shown)) as string;
}

/** Each control is shown as its escape, none as itself. */
function expectShownInOrder(text: string): void {
  const found = DIRECTION_CONTROL.exec(text);
  expect(
    found,
    `U+${found?.[0].codePointAt(0)?.toString(16)} near ${JSON.stringify(text.slice(Math.max(0, (found?.index ?? 0) - 30), (found?.index ?? 0) + 30))}`,
  ).toBeNull();
  expect(text).toContain('exe.\\u202etxt\\u202c');
  expect(text).toContain('\\u200fmarked\\u200f \\u061carabic\\u061c \\u200eleft\\u200e');
}

async function callTool(name: string): Promise<void> {
  const { page } = running();
  await goToUiPage(page, 'Tools');
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await page.getByRole('button', { name: `Call ${name}` }).click();
}

const running = useAroundTests(async () => {
  // A model that calls the tool, and one by a name with the controls, and answers with them; a skill beside the
  // config whose description has them.
  const config = await writeScriptedConfig(
    'mcp-host-ui-text-direction-',
    {
      scenarios: [
        {
          turns: [
            {
              toolCalls: [
                { id: 'r1', name: 'direction__reverse' },
                { id: 'r2', name: 'direction__\u202eesrever\u202c call-name-marker' },
              ],
            },
            { text: `Saved exe.\u202etxt\u202c ${MARKS} answer-marker` },
          ],
        },
      ],
    },
    {
      mcpServers: { direction: { command: process.execPath, args: [directionServer] } },
      permissions: { allow: ['direction__reverse', 'direction__change', 'direction__ask', 'direction__progress'] },
    },
  );
  writeSkill(join(dirname(config), 'skills'), {
    name: 'sorter',
    description: `Sorts exe.\u202etxt\u202c \u2066files\u2069 ${MARKS} skill-marker`,
  });
  // The host starts once the first question is answered: the tool with the controls is withheld until approved.
  return startUiInChromium(['--config', config], { ui: { waitForHost: false } });
});

describe('the web UI and text-direction controls from a server', () => {
  it(
    'asks about the new tool that hides them with the controls as escapes',
    async () => {
      const { page } = running();
      const dialog = page.getByRole('dialog', { name: 'A new tool is withheld until you approve it' });
      await dialog.waitFor(WAIT);
      const asked = await pageTextWith('description-marker');
      // Answered before the check, so that the tests after it run whatever it finds.
      await dialog.getByRole('button', { name: 'Approve', disabled: false }).click();
      await dialog.waitFor({ state: 'hidden', ...WAIT });
      expectShownInOrder(asked);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shows its tools, a result, and the server with its log message, with the controls as escapes',
    async () => {
      const { page } = running();
      await callTool('direction__reverse');
      await page
        .getByRole('region', { name: 'Result' })
        .getByText(/result-marker/)
        .waitFor(WAIT);
      expectShownInOrder(await pageTextWith('description-marker'));
      expectShownInOrder(await pageTextWith('title-marker'));
      // The form made from its arguments: their title, description and choices.
      expectShownInOrder(await pageTextWith('field-title-marker'));
      expectShownInOrder(await pageTextWith('field-hint-marker'));
      expectShownInOrder(await pageTextWith('enum-marker'));
      await page.getByLabel('Show text as Markdown').check();
      expectShownInOrder(await pageTextWith('result-marker'));

      // A call that reports progress, then runs until it is cancelled.
      await callTool('direction__progress');
      await page
        .getByRole('status')
        .getByText(/progress-marker/)
        .waitFor(WAIT);
      expectShownInOrder(await pageTextWith('progress-marker'));
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('region', { name: 'Result' }).getByText('cancelled', { exact: true }).waitFor(WAIT);

      await goToUiPage(page, 'Servers');
      expectShownInOrder(await pageTextWith('name-marker'));
      expectShownInOrder(await pageTextWith('version-marker'));
      expectShownInOrder(await pageTextWith('log-marker'));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "shows resources, a resource read, templates, prompts and completion's suggestions with the controls as escapes",
    async () => {
      const { page } = running();
      await goToUiPage(page, 'Resources & prompts');
      await page.getByRole('button', { name: /resource-name-marker/ }).click();
      await page
        .getByRole('region', { name: 'Result' })
        .getByText(/resource-marker/)
        .waitFor(WAIT);
      expectShownInOrder(await pageTextWith('prompt-marker'));
      expectShownInOrder(await pageTextWith('argument-marker'));
      expectShownInOrder(await pageTextWith('template-marker'));
      // An argument's name is a label, shown as a name: its zero-width space as an escape too.
      const named = await pageTextWith('argument-name-marker');
      expectShownInOrder(named);
      expect(named).toContain('an\\u200bgle exe.\\u202etxt');

      // The server's error for a resource it cannot read.
      await page.getByRole('button', { name: /^broken/ }).click();
      await page.locator('.error', { hasText: 'read-error-marker' }).waitFor(WAIT);
      expectShownInOrder(await pageTextWith('read-error-marker'));

      // What the server suggests for the template's variable, then for the prompt's argument.
      await page
        .getByRole('form', { name: /template-marker/ })
        .getByLabel('topic')
        .fill('s');
      expectShownInOrder(await pageTextWith('suggestion-marker'));
      await page.getByRole('form', { name: 'Prompt brief' }).getByLabel(/topic/).fill('s');
      // Each suggestion holds controls, so it is offered as a button showing them as escapes.
      await page
        .getByRole('form', { name: 'Prompt brief' })
        .getByRole('button', { name: /suggestion-marker/ })
        .waitFor(WAIT);
      expectShownInOrder(await pageTextWith('suggestion-marker'));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "shows a server's form with the controls as escapes",
    async () => {
      const { page } = running();
      await callTool('direction__ask');
      const dialog = page.getByRole('dialog', { name: 'A server asks you to fill in a form' });
      await dialog.waitFor(WAIT);
      await pageTextWith('label-marker');
      await pageTextWith('hint-marker');
      const asked = await pageTextWith('choice-marker');
      await dialog.getByRole('button', { name: 'Decline', disabled: false }).click();
      await dialog.waitFor({ state: 'hidden', ...WAIT });
      expectShownInOrder(asked);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shows a chat turn, its calls with their translations, the audit and the skills with the controls as escapes',
    async () => {
      const { page } = running();
      await startChatTurn(page, 'Reverse it');
      const card = page.getByRole('article', { name: 'Tool call direction__reverse' });
      await card.getByText('ok', { exact: true }).waitFor(WAIT);
      await card.getByRole('button', { name: /Show the three translations/ }).click();
      await card.getByRole('heading', { name: '1. The tool as the provider got it' }).waitFor(WAIT);
      await page.getByRole('article', { name: /call-name-marker/ }).waitFor(WAIT);
      expectShownInOrder(await pageTextWith('answer-marker'));

      await goToUiPage(page, 'Audit');
      const audit = await pageTextWith('direction__reverse');
      expect(audit).not.toMatch(DIRECTION_CONTROL);

      await goToUiPage(page, 'Skills');
      expectShownInOrder(await pageTextWith('skill-marker'));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shows a changed definition, in the question and on the Trust page, with the controls as escapes',
    async () => {
      const { page } = running();
      await callTool('direction__change');
      const dialog = page.getByRole('dialog', { name: 'A tool changed since you approved it' });
      await dialog.waitFor(WAIT);
      const asked = await pageTextWith('changed-marker');
      await dialog.getByRole('button', { name: 'Keep withheld', disabled: false }).click();
      await dialog.waitFor({ state: 'hidden', ...WAIT });

      await goToUiPage(page, 'Trust');
      await page.getByRole('article', { name: 'Withheld tool reverse' }).locator('.added').first().waitFor(WAIT);
      const trust = await pageTextWith('changed-marker');
      expectShownInOrder(asked);
      expectShownInOrder(trust);
    },
    TEST_TIMEOUT_MS,
  );
});
