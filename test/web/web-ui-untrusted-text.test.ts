/**
 * The web UI in Chromium against names a config gives and what servers and the trust store say, where a browser
 * would show them misleadingly if the UI let it: a server whose name holds a space still names its section (the
 * section is known by an id of the UI's own, not one made of the name, which a space would split). The tests run in
 * order, on one page.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { repoRoot, writeConfig } from '../helpers/project.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const TEST_TIMEOUT_MS = 60_000;
const SPACED = 'spaced name';
const echoContentServer = join(repoRoot, 'test', 'fixtures', 'servers', 'echo-content.mjs');

let running: UiInChromium | undefined;
let page: Page;

async function goTo(label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label }).click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor(WAIT);
}

beforeAll(async () => {
  const config = await writeConfig({
    mcpServers: { [SPACED]: { command: process.execPath, args: [echoContentServer], trust: 'trusted' } },
  });
  running = await startUiInChromium(['--config', config]);
  page = running.page;
}, 90_000);

afterAll(async () => {
  await running?.stop();
});

describe('the web UI and what configs, servers and the trust store say', () => {
  it(
    'names the section of a server whose name holds a space, on the Servers and Trust pages',
    async () => {
      for (const label of ['Servers', 'Trust']) {
        await goTo(label);
        await page.getByRole('region', { name: new RegExp(`^${SPACED}`) }).waitFor(WAIT);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
