/**
 * A model switch made in another tab, in real Chromium: the tab that did not make it shows the new model in its
 * status line and the cost priced by that model (the config prices one scripted model and not the other), not the
 * cost of the model before.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { sendInChat } from '../helpers/chat-page.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { temporaryDirectory } from '../helpers/project.js';
import { openUiPage, startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const SCRIPT = { scenarios: [{ match: '.*', turns: [{ text: 'Hello.' }] }] };

/** The scripts' folder: a model is switched to by its script's path, and shown and priced by the file's name. */
let directory: string;

const running = useAroundTests(async () => {
  directory = await temporaryDirectory('mcp-host-ui-model-cost-');
  const config = join(directory, 'mcp-host.json');
  await writeFile(join(directory, 'priced.json'), JSON.stringify(SCRIPT));
  await writeFile(join(directory, 'unpriced.json'), JSON.stringify(SCRIPT));
  await writeFile(
    config,
    JSON.stringify({
      model: `scripted:${join(directory, 'priced.json')}`,
      mcpServers: {},
      modelPrices: { 'scripted:priced.json': { inputPerMillion: 3, outputPerMillion: 15 } },
    }),
  );
  return startUiInChromium(['--config', config]);
});

async function switchModel(page: Page, script: string): Promise<void> {
  await page.getByLabel('Switch model').fill(`scripted:${join(directory, script)}`);
  await page.getByRole('button', { name: 'Use this model' }).click();
}

describe('a model switch in another tab', () => {
  it("changes this tab's cost with its model", async () => {
    const here = running().page;
    await sendInChat(here, 'hi', 'Hello.', WAIT);
    await here
      .getByRole('status')
      .getByText(/scripted:priced\.json .* cost \$[0-9.e-]+ \(price from the config\)$/)
      .waitFor(WAIT);

    const { page: there } = await openUiPage(running());
    await goToUiPage(there, 'Chat', WAIT);
    await switchModel(there, 'unpriced.json');
    await there
      .getByRole('status')
      .getByText(/scripted:unpriced\.json .* cost: price unknown$/)
      .waitFor(WAIT);
    await here.bringToFront();
    await here
      .getByRole('status')
      .getByText(/scripted:unpriced\.json .* cost: price unknown$/)
      .waitFor(WAIT);

    await switchModel(there, 'priced.json');
    await here
      .getByRole('status')
      .getByText(/scripted:priced\.json .* cost \$[0-9.e-]+ \(price from the config\)$/)
      .waitFor(WAIT);
  }, 60_000);
});
