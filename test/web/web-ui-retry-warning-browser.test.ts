/**
 * A call whose server dies and which is sent once more, in the web UI in real Chromium, made by the model in the chat
 * and by hand on the Tools page, and by an MCP Apps view's own call: the page, which hears none of the terminal's diagnostics, shows the warning with how
 * the server went (its exit code and stderr tail), once, the tail as text even where it reads as markup; the terminal
 * running `mcp-host ui` reports the exit once, as before. Each way of calling has a server of its own, as the server
 * exits only during the first call it gets. A chat's warning is shown beside its call, as it goes and after a reload. A view's warning is shown beside the view and never passed into it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startChatTurn } from '../helpers/chat-page.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { fixtureServer, temporaryDirectory, writeScriptedConfig } from '../helpers/project.js';
import { startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
/** A line the server writes to stderr when it starts, as a page would run it if it took text for markup. */
const MARKUP = '<img src="x" onerror="document.title = \'ran\'"><b>bold</b>';
const TAIL = 'exiting once with code 5 in the middle of a call';
const exitReport = (server: string) => `server "${server}" exited with code 5; stderr tail:\n${MARKUP}\n${TAIL}`;
const warning = (server: string) =>
  `${server}__read_once_exits lost its server; trying once more, as the tool is marked safe to retry (${exitReport(server)})`;

const running = useAroundTests(async () => {
  const directory = await temporaryDirectory('mcp-host-ui-retry-');
  const fixture = pathToFileURL(fixtureServer('crash-mid-call.mjs')).href;
  const viewsFixture = pathToFileURL(fixtureServer('app-views.mjs')).href;
  const crashingServer = (name: string, server = fixture) => ({
    command: process.execPath,
    args: ['-e', `process.stderr.write(${JSON.stringify(`${MARKUP}\n`)}); import(${JSON.stringify(server)});`],
    // The server exits during its first call only, while this file is not there; the call sent again is answered.
    env: { EXITED_ONCE_FILE: join(directory, `${name}-exited-once`) },
    trust: 'trusted',
  });
  const config = await writeScriptedConfig(
    'mcp-host-ui-retry-',
    {
      scenarios: [
        {
          match: 'read',
          turns: [
            { toolCalls: [{ name: 'chatted__read_once_exits', arguments: {} }] },
            { text: 'The tool said: {{lastToolResult}}' },
          ],
        },
      ],
    },
    {
      permissions: { allow: ['chatted__*', 'viewed__*'] },
      mcpServers: {
        chatted: crashingServer('chatted'),
        called: crashingServer('called'),
        viewed: crashingServer('viewed', viewsFixture),
      },
    },
  );
  return startUiInChromium(['--config', config]);
});

function timesIn(text: string, part: string): number {
  return text.split(part).length - 1;
}

/**
 * The page shows `server`'s warning once (in `scope`), whole and as text; the terminal its exit report once, and no
 * warning.
 */
async function expectToldOnceEach(page: Page, server: string, scope: Page | Locator = page): Promise<void> {
  const warnings = scope.getByRole('list', { name: 'Warnings' });
  await warnings.waitFor(WAIT);
  expect(await warnings.getByRole('listitem').allTextContents()).toEqual([warning(server)]);
  expect(timesIn((await page.locator('body').textContent()) ?? '', TAIL)).toBe(1);
  // The server's text stays text: no element made of it, nothing of it run.
  expect(await warnings.locator('img, b').count()).toBe(0);
  expect(await page.title()).not.toBe('ran');

  const stderr = running().ui.stderr();
  expect(stderr).toContain(`mcp-host: ${exitReport(server)}\n`);
  expect(timesIn(stderr, `server "${server}" exited`), stderr).toBe(1);
  expect(stderr).not.toContain('trying once more');
}

describe('a call sent once more after its server went away', () => {
  it('is shown in the chat beside its call with how the server went, once, and the terminal has its report', async () => {
    const page = running().page;
    await startChatTurn(page, 'read it');
    await page
      .locator('.turn')
      .getByText(/The tool said: read \d+/)
      .waitFor(WAIT);
    // Beside the call it belongs to, as a page that comes later shows it.
    const call = page.locator('.turn').getByRole('article', { name: 'Tool call chatted__read_once_exits [1]' });
    await expectToldOnceEach(page, 'chatted', call);
  }, 60_000);

  it('is shown again with its call in the chat after a reload, once', async () => {
    const page = running().page;
    await page.reload();
    await goToUiPage(page, 'Chat');
    const call = page.getByRole('article', { name: 'Tool call chatted__read_once_exits [1]' });
    await expectToldOnceEach(page, 'chatted', call);
  }, 60_000);

  it('is shown with the result on the Tools page with how the server went, once, and the terminal has its report', async () => {
    const page = running().page;
    await goToUiPage(page, 'Tools');
    await page.getByRole('button', { name: /^called__read_once_exits/ }).click();
    await page.getByRole('button', { name: 'Call called__read_once_exits' }).click();
    await page
      .getByRole('region', { name: 'Result' })
      .getByText(/^read \d+$/)
      .waitFor(WAIT);
    await expectToldOnceEach(page, 'called');
  }, 60_000);

  it('is shown beside a view whose own call it was, once, with how the server went, and not passed into the view', async () => {
    const page = running().page;
    await goToUiPage(page, 'Tools');
    await page.getByRole('button', { name: /^viewed__reader/ }).click();
    await page.getByRole('button', { name: 'Call viewed__reader' }).click();
    const view = page.getByRole('region', { name: 'View of viewed__reader' });
    const frame = view
      .frameLocator('iframe[title="View of viewed__reader"]')
      .frameLocator('iframe[title="MCP App view"]');
    await frame.getByRole('button', { name: 'Read' }).click();
    await frame.getByText(/^read \d+ /).waitFor(WAIT);
    await expectToldOnceEach(page, 'viewed', view);
    // The view got the result alone, and heard nothing of the warning.
    const seen = `${await frame.locator('#read').textContent()}\n${await frame.locator('#said').textContent()}`;
    expect(seen).toMatch(/^read \d+ \{"content":\[\{"type":"text","text":"read \d+"\}\]\}\n/);
    expect(seen).not.toContain('trying once more');
    expect(seen).not.toContain(TAIL);
  }, 60_000);
});
