/**
 * A chat call whose server dies and which is sent once more, in the web UI in real Chromium: the page, which hears
 * none of the terminal's diagnostics, shows the warning with how the server went (its exit code and stderr tail), once,
 * the tail as text even where it reads as markup; the terminal running `mcp-host ui` reports the exit once, as before.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
/** A line the server writes to stderr when it starts, as a page would run it if it took text for markup. */
const MARKUP = '<img src="x" onerror="document.title = \'ran\'"><b>bold</b>';
const TAIL = 'exiting once with code 5 in the middle of a call';
const WARNING = `crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry (server "crashy" exited with code 5; stderr tail:\n${MARKUP}\n${TAIL})`;

let running: UiInChromium | undefined;

beforeAll(async () => {
  const directory = await temporaryDirectory('mcp-host-ui-retry-');
  const config = join(directory, 'mcp-host.json');
  const server = pathToFileURL(fixtureServer('crash-mid-call.mjs')).href;
  await writeFile(
    config,
    JSON.stringify({
      model: 'scripted:script.json',
      permissions: { allow: ['crashy__*'] },
      mcpServers: {
        crashy: {
          command: process.execPath,
          args: ['-e', `process.stderr.write(${JSON.stringify(`${MARKUP}\n`)}); import(${JSON.stringify(server)});`],
          // The server exits during the first call only, while this file is not there; the second is answered.
          env: { EXITED_ONCE_FILE: join(directory, 'exited-once') },
          trust: 'trusted',
        },
      },
    }),
  );
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'read',
          turns: [
            { toolCalls: [{ name: 'crashy__read_once_exits', arguments: {} }] },
            { text: 'The tool said: {{lastToolResult}}' },
          ],
        },
      ],
    }),
  );
  running = await startUiInChromium(['--config', config]);
}, 90_000);

afterAll(async () => {
  await running?.stop();
});

function timesIn(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('a chat call sent once more after its server went away', () => {
  it('shows the page how the server went, with the warning, once, and the terminal its report', async () => {
    const page = running!.page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor(WAIT);
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('read it');
    await page.getByRole('button', { name: 'Send' }).click();
    const turn = page.locator('.turn');
    await turn.getByText(/The tool said: read \d+/).waitFor(WAIT);

    const warnings = turn.getByRole('list', { name: 'Warnings' });
    await warnings.waitFor(WAIT);
    expect(await warnings.getByRole('listitem').allTextContents()).toEqual([WARNING]);
    expect(timesIn((await page.locator('body').textContent()) ?? '', TAIL)).toBe(1);
    // The server's text stays text: no element made of it, nothing of it run.
    expect(await warnings.locator('img, b').count()).toBe(0);
    expect(await page.title()).not.toBe('ran');

    const stderr = running!.ui.stderr();
    expect(stderr).toContain(`mcp-host: server "crashy" exited with code 5; stderr tail:\n${MARKUP}\n${TAIL}\n`);
    expect(timesIn(stderr, TAIL), stderr).toBe(1);
    expect(stderr).not.toContain('trying once more');
  }, 60_000);
});
