/**
 * The web UI's chat in real Chromium over saved sessions, as a person uses it, with the scripted model and the
 * calculator example: two tabs on the one conversation the UI holds, each showing what the other did (a message sent,
 * a conversation opened or resumed); and tool calls numbered in the conversation as the terminal chat numbers them,
 * the same number before and after a reload or a resume, with the saved result beside each earlier call; and what the
 * terminal chat prints of a session file, shown on the page: the lines of a damaged one skipped when it is resumed,
 * one saved by a newer version passed over in the list, a save that fails during a turn; and a page reloaded while a
 * turn runs, which shows the calls the turn made before it came; and a turn stopped while a call waits for approval,
 * whose call the transcript answers; an earlier message of several lines shown as written, its first line starting where
 * the others do; and the list of conversations read again when the page comes back into view or its window is
 * focused, so it shows a session a terminal chat (another process) saved meanwhile, or when a page opened in the
 * background is first shown; and followed while the page stays in view: a session saved then shows, and a burst of
 * thousands of files is listed after a few reads, its newest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EXIT_OK } from '../../src/cli/exit-codes.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { exampleServer, runCli, writeConfig } from '../helpers/project.js';
import { openUiPage, startUiAndChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';
import { callUiApi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

let configFile: string;

const started = useAroundTests(async () => {
  const config = await writeConfig({
    model: 'scripted:script.json',
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    permissions: {
      allow: ['calculator__add_numbers', 'calculator__multiply', 'calculator__subtract'],
      ask: ['calculator__divide'],
    },
  });
  await writeFile(
    join(dirname(config), 'script.json'),
    JSON.stringify({
      fallbackText: 'Noted.',
      scenarios: [
        {
          match: '(\\d+) plus (\\d+)',
          turns: [
            { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: '{{match.1}}', b: '{{match.2}}' } }] },
            { text: '{{match.1}} plus {{match.2}} is {{lastToolResult}}.' },
          ],
        },
        {
          match: 'Both at once',
          turns: [
            {
              toolCalls: [
                { name: 'calculator__multiply', arguments: { a: 12, b: 3 } },
                { name: 'calculator__subtract', arguments: { a: 12, b: 2 } },
              ],
            },
            { text: 'Both done.' },
          ],
        },
        {
          match: 'Add, then divide',
          turns: [
            { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 6, b: 6 } }] },
            { toolCalls: [{ name: 'calculator__divide', arguments: { a: 12, b: 4 } }] },
            { text: 'Divided: {{lastToolResult}}.' },
          ],
        },
      ],
    }),
  );
  configFile = config;
  return startUiAndChromium(['--config', config]);
});

async function chatTab(): Promise<Page> {
  const { page } = await openUiPage(started());
  await goToUiPage(page, 'Chat', WAIT);
  return page;
}

async function send(page: Page, text: string): Promise<void> {
  await page.bringToFront();
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

async function sessionIdShown(page: Page): Promise<string> {
  const status = await page.getByRole('status').filter({ hasText: 'Session' }).textContent();
  return /Session (\S+)/.exec(status ?? '')?.[1] ?? '';
}

const sessionFile = (id: string) => join(started().ui.stateDir, 'sessions', `${id}.jsonl`);

describe('two tabs on the chat', () => {
  it('each shows the message the other sent and the conversation the other opened, and sends into the one it shows', async () => {
    const first = await chatTab();
    const second = await chatTab();

    await send(first, 'What is 5 plus 7?');
    await first.getByText('5 plus 7 is 12.').waitFor(WAIT);
    // The tab open on the chat before the message was sent shows its turn too.
    await second.locator('.turn').getByText('What is 5 plus 7?').waitFor(WAIT);
    await second.locator('.turn').getByText('5 plus 7 is 12.').waitFor(WAIT);
    const saved = await sessionIdShown(first);
    expect(await sessionIdShown(second)).toBe(saved);

    // The second tab starts another conversation: the first no longer shows the one the server left.
    await second.bringToFront();
    await second.getByRole('button', { name: 'New conversation' }).click();
    await first.bringToFront();
    await first.getByText('5 plus 7 is 12.').waitFor({ state: 'detached', ...WAIT });
    const fresh = await sessionIdShown(second);
    expect(fresh).not.toBe(saved);
    expect(await sessionIdShown(first)).toBe(fresh);

    // What the first tab sends goes into the conversation it shows, and shows alone there.
    await send(first, 'What is 1 plus 2?');
    await first.getByText('1 plus 2 is 3.').waitFor(WAIT);
    expect(await sessionIdShown(first)).toBe(fresh);
    expect(await first.getByText('5 plus 7 is 12.').count()).toBe(0);
    expect(readFileSync(sessionFile(fresh), 'utf8')).toContain('What is 1 plus 2?');
    expect(readFileSync(sessionFile(saved), 'utf8')).not.toContain('What is 1 plus 2?');

    // The second tab resumes the saved conversation: the first shows it, with its messages.
    await second.bringToFront();
    await second
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: /What is 5 plus 7\?/ })
      .click();
    await first.bringToFront();
    await first.getByRole('list', { name: 'Earlier messages' }).getByText('5 plus 7 is 12.').waitFor(WAIT);
    await first.getByText('1 plus 2 is 3.').waitFor({ state: 'detached', ...WAIT });
    expect(await sessionIdShown(first)).toBe(saved);
    // Its list of conversations marks the one it shows.
    await first
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: /What is 5 plus 7\?/, pressed: true })
      .waitFor(WAIT);
  }, 120_000);
});

describe('tool calls numbered in the conversation', () => {
  it('numbers calls as the transcript does, keeps the numbers over a reload and a resume, and numbers new calls after them', async () => {
    const page = await chatTab();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'What is 6 plus 7?');
    await page.getByText('6 plus 7 is 13.').waitFor(WAIT);
    await send(page, 'Both at once');
    await page.getByText('Both done.').waitFor(WAIT);
    const live = page.locator('.turn');
    await live.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' }).waitFor(WAIT);
    await live.getByRole('article', { name: 'Tool call calculator__multiply [2]' }).waitFor(WAIT);
    await live.getByRole('article', { name: 'Tool call calculator__subtract [3]' }).waitFor(WAIT);
    const saved = await sessionIdShown(page);

    // After a reload the calls come from the saved transcript: the same numbers, each with the result it got.
    await page.reload();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
    const earlier = page.getByRole('list', { name: 'Earlier messages' });
    await earlier.waitFor(WAIT);
    const subtract = earlier.getByRole('article', { name: 'Tool call calculator__subtract [3]' });
    await subtract.waitFor(WAIT);
    expect(await subtract.textContent()).toMatch(/\{"a":12,"b":2\}.*result.*10/);
    expect(await earlier.getByRole('article', { name: 'Tool call calculator__multiply [2]' }).textContent()).toMatch(
      /result.*36/,
    );
    await send(page, 'What is 2 plus 3?');
    await page.getByText('2 plus 3 is 5.').waitFor(WAIT);
    await live.getByRole('article', { name: 'Tool call calculator__add_numbers [4]' }).waitFor(WAIT);

    // Another conversation numbers from 1; the saved one, resumed, numbers its next call after its four.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await earlier.waitFor({ state: 'detached', ...WAIT });
    await send(page, 'What is 1 plus 1?');
    await live.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' }).waitFor(WAIT);
    await page.getByText('1 plus 1 is 2.').waitFor(WAIT);
    await page
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: /What is 6 plus 7\?/ })
      .click();
    await earlier.getByRole('article', { name: 'Tool call calculator__add_numbers [4]' }).waitFor(WAIT);
    expect(await sessionIdShown(page)).toBe(saved);
    await send(page, 'What is 4 plus 4?');
    await page.getByText('4 plus 4 is 8.').waitFor(WAIT);
    await live.getByRole('article', { name: 'Tool call calculator__add_numbers [5]' }).waitFor(WAIT);
  }, 120_000);
});

describe('session files the page cannot take as they are', () => {
  it("names a newer version's file it passes over, the lines of a damaged one it skipped, and a save that failed", async () => {
    const folder = join(started().ui.stateDir, 'sessions');
    const record = (value: unknown) => `${JSON.stringify(value)}\n`;
    const header = (id: string, version: number, title: string) =>
      record({
        type: 'session',
        version,
        id,
        config: configFile,
        model: 'scripted:script.json',
        createdAt: '2026-01-01T10:00:00.000Z',
        title,
      });
    const message = (at: string, role: 'user' | 'assistant', text: string) =>
      record({ type: 'message', at, message: { role, content: [{ type: 'text', text }] } });
    const damaged = '20260101-100000-0000000d';
    const newer = '20260101-100000-0000000e';
    await writeFile(
      join(folder, `${damaged}.jsonl`),
      header(damaged, 1, 'A damaged one') +
        message('2026-01-01T10:00:01.000Z', 'user', 'A damaged one') +
        '{"type":"message","at":"garbage\n' +
        message('2026-01-01T10:00:02.000Z', 'assistant', 'Kept after the damage.') +
        '{"type":"message","at":"2026-01-01T10:00:03.000Z","mess',
    );
    await writeFile(join(folder, `${newer}.jsonl`), header(newer, 2, 'From a newer version'));

    const page = await chatTab();
    const passedOver = page.getByRole('list', { name: 'Session files passed over' });
    await passedOver
      .getByText(`${newer}.jsonl was saved by a newer mcp-host (format 2); upgrade to read it`)
      .waitFor(WAIT);

    await page
      .getByRole('complementary', { name: 'Conversations' })
      .getByRole('button', { name: /A damaged one/ })
      .click();
    await page.getByRole('list', { name: 'Earlier messages' }).getByText('Kept after the damage.').waitFor(WAIT);
    const notes = page.getByRole('list', { name: 'Notes on the session' });
    await notes.getByText(`${damaged}.jsonl line 3: ignored a line that is not a session record`).waitFor(WAIT);
    await notes.getByText(`${damaged}.jsonl line 5: ignored a torn last line`).waitFor(WAIT);

    // Something not a file takes the session file's place: the turn goes on unsaved, and says so.
    await rm(join(folder, `${damaged}.jsonl`));
    await mkdir(join(folder, `${damaged}.jsonl`));
    await send(page, 'What is 2 plus 2?');
    await page.getByText('2 plus 2 is 4.').waitFor(WAIT);
    await page
      .locator('.turn')
      .getByRole('list', { name: 'Notes on the session' })
      .getByText(`could not open the session file ${join(folder, `${damaged}.jsonl`)}`)
      .first()
      .waitFor(WAIT);
  }, 120_000);
});

describe('a page reloaded while a turn runs', () => {
  it('shows the calls the turn made before the reload, and every call of it once it ended', async () => {
    const page = await chatTab();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'Add, then divide');
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    await page.locator('.turn').getByRole('article', { name: 'Tool call calculator__divide [2]' }).waitFor(WAIT);

    await page.reload();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
    const before = page.getByRole('list', { name: 'What the turn did before this page came' });
    const added = before.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' });
    await added.waitFor(WAIT);
    expect(await added.textContent()).toMatch(/result.*12/);

    await dialog.getByRole('button', { name: 'Allow once', disabled: false }).waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    const earlier = page.getByRole('list', { name: 'Earlier messages' });
    const divided = earlier.getByRole('article', { name: 'Tool call calculator__divide [2]' });
    await divided.waitFor(WAIT);
    expect(await divided.textContent()).toMatch(/result.*3/);
    await earlier.getByText('Divided: 3.').waitFor(WAIT);
    await earlier.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' }).waitFor(WAIT);
  }, 120_000);
});

describe('a turn stopped while a call waits for approval', () => {
  it('shows the call as not finished, and the transcript answers it', async () => {
    const page = await chatTab();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'Add, then divide');
    await page.getByRole('dialog', { name: 'A tool call needs your approval' }).waitFor(WAIT);
    // Stopped from elsewhere (another tab's Stop), as the dialog covers this one's.
    expect((await callUiApi(started().ui, '/api/chat/cancel', {})).body).toEqual({ cancelled: true });
    const card = page.locator('.turn').getByRole('article', { name: 'Tool call calculator__divide [2]' });
    await card.getByText('not finished', { exact: true }).waitFor(WAIT);

    await page.reload();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
    const divided = page
      .getByRole('list', { name: 'Earlier messages' })
      .getByRole('article', { name: 'Tool call calculator__divide [2]' });
    await divided.getByText(/The turn was cancelled before this call finished/).waitFor(WAIT);
    expect(await divided.getByText('error', { exact: true }).count()).toBe(1);
  }, 120_000);
});

describe('an earlier message of several lines', () => {
  it('starts its first line where its second starts, as written', async () => {
    const page = await chatTab();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'First line\nsecond line');
    await page.locator('.turn').getByText('Noted.').waitFor(WAIT);

    await page.reload();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor(WAIT);
    const message = page
      .getByRole('list', { name: 'Earlier messages' })
      .locator('li.user-message', { hasText: 'First line' });
    await message.waitFor(WAIT);
    // Where each line's first character is laid out: a space before the text would push the first one right.
    const lefts = await message.evaluate((item) => {
      const page = item.ownerDocument;
      // 4: NodeFilter.SHOW_TEXT.
      const walker = page.createTreeWalker(item, 4);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        if (!text.includes('First line')) continue;
        const leftOf = (offset: number) => {
          const range = page.createRange();
          range.setStart(node!, offset);
          range.setEnd(node!, offset + 1);
          return range.getBoundingClientRect().left;
        };
        return { first: leftOf(text.indexOf('First line')), second: leftOf(text.indexOf('second line')) };
      }
      return undefined;
    });
    expect(lefts).toBeDefined();
    expect(lefts!.first).toBe(lefts!.second);
  }, 120_000);
});

describe('the list of conversations', () => {
  it('shows a session a terminal chat saved once the page comes back into view, or its window is focused', async () => {
    const page = await chatTab();
    const list = page.getByRole('complementary', { name: 'Conversations' });
    await list.getByRole('button', { name: 'New conversation' }).waitFor(WAIT);
    const chatInTerminal = async (question: string) => {
      const chat = await runCli(['chat', '--config', configFile], {
        cwd: dirname(configFile),
        stateDir: started().ui.stateDir,
        input: `${question}\n`,
      });
      expect(chat.code, chat.stderr).toBe(EXIT_OK);
    };

    await chatInTerminal('What is 30 plus 40?');
    const first = list.getByRole('button', { name: /What is 30 plus 40\?/ });
    // The person went to the terminal (the window lost focus), then the tab is shown again.
    await page.evaluate("window.dispatchEvent(new Event('blur'))");
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await first.waitFor(WAIT);

    await chatInTerminal('What is 50 plus 60?');
    const second = list.getByRole('button', { name: /What is 50 plus 60\?/ });
    // The browser's window left and focused again.
    await page.evaluate("window.dispatchEvent(new Event('blur'))");
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await second.waitFor(WAIT);
  }, 120_000);

  it('shows a session saved while the page was opened in the background, once it is first shown', async () => {
    const { context, page } = await openUiPage(started());
    try {
      // The page is hidden from its start, as a tab opened in the background is, until the test shows it; the live
      // events of the saved sessions it hears are counted.
      await page.addInitScript(`
      window.testShown = false;
      Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (window.testShown ? 'visible' : 'hidden') });
      Object.defineProperty(Document.prototype, 'hidden', { get: () => !window.testShown });
      window.testSessionsEvents = 0;
      const Original = window.EventSource;
      window.EventSource = class extends Original {
        constructor(...args) {
          super(...args);
          this.addEventListener('sessions', () => { window.testSessionsEvents += 1; });
        }
      };
    `);
      await page.reload();
      await goToUiPage(page, 'Chat', WAIT);
      const list = page.getByRole('complementary', { name: 'Conversations' });
      await list.getByRole('button', { name: 'New conversation' }).waitFor(WAIT);
      expect(await page.evaluate('document.visibilityState')).toBe('hidden');

      // Saved whole at once, as one change of the folder: the page is told of it once, while it is hidden.
      // Older than the burst of the next test, whose newest 500 are all its own.
      const id = '20200101-000000-0000b9b9';
      const at = '2020-01-01T00:00:00.000Z';
      const staging = join(started().ui.stateDir, `${id}.jsonl`);
      await writeFile(
        staging,
        [
          {
            type: 'session',
            version: 1,
            id,
            config: configFile,
            model: 'scripted:script.json',
            createdAt: at,
            title: 'Saved in the background',
          },
          {
            type: 'message',
            at,
            message: { role: 'user', content: [{ type: 'text', text: 'Saved in the background' }] },
          },
        ]
          .map((line) => `${JSON.stringify(line)}\n`)
          .join(''),
      );
      const eventsHeard = async () => Number(await page.evaluate('window.testSessionsEvents'));
      const heardMoreThan = (count: number) =>
        page.waitForFunction(
          (before) => (globalThis as unknown as { testSessionsEvents: number }).testSessionsEvents > before,
          count,
          WAIT,
        );
      // A sessions folder made now is a change of its own, told before the file is saved.
      if (!existsSync(dirname(sessionFile(id)))) {
        const before = await eventsHeard();
        await mkdir(dirname(sessionFile(id)));
        await heardMoreThan(before);
      }
      const told = await eventsHeard();
      await rename(staging, sessionFile(id));
      await heardMoreThan(told);

      await page.evaluate("window.testShown = true; document.dispatchEvent(new Event('visibilitychange'))");
      await list.getByRole('button', { name: /Saved in the background/ }).waitFor(WAIT);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('follows the sessions saved while the page stays in view and focused, a burst of files with a few reads', async () => {
    const page = await chatTab();
    const list = page.getByRole('complementary', { name: 'Conversations' });
    await list.getByRole('button', { name: 'New conversation' }).waitFor(WAIT);
    const chat = await runCli(['chat', '--config', configFile], {
      cwd: dirname(configFile),
      stateDir: started().ui.stateDir,
      input: 'What is 70 plus 80?\n',
    });
    expect(chat.code, chat.stderr).toBe(EXIT_OK);
    // Neither hidden nor blurred meanwhile.
    await list.getByRole('button', { name: /What is 70 plus 80\?/ }).waitFor(WAIT);

    // Thousands of session files at once, each of this config, all newer than those before.
    const count = 2_000;
    const staging = join(started().ui.stateDir, 'burst');
    await mkdir(staging);
    const names: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const id = `20300101-000000-${index.toString(16).padStart(8, '0')}`;
      const at = new Date(Date.UTC(2030, 0, 1) + index * 1_000).toISOString();
      const lines = [
        {
          type: 'session',
          version: 1,
          id,
          config: configFile,
          model: 'scripted:script.json',
          createdAt: at,
          title: `Burst ${index}`,
        },
        { type: 'message', at, message: { role: 'user', content: [{ type: 'text', text: `Burst ${index}` }] } },
      ];
      await writeFile(join(staging, `${id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      names.push(`${id}.jsonl`);
    }
    let reads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/sessions') reads += 1;
    });
    for (const name of names) await rename(join(staging, name), sessionFile(name.slice(0, -'.jsonl'.length)));
    await list.getByRole('button', { name: new RegExp(`Burst ${count - 1} `) }).waitFor(WAIT);
    // The newest 500 are listed, and the rest counted.
    const listed = (await callUiApi<{ omitted: number }>(started().ui, '/api/sessions')).body;
    await list.getByText(`${listed.omitted} older conversation(s) are not listed here`, { exact: false }).waitFor(WAIT);
    expect(listed.omitted).toBeGreaterThan(count - 500);
    expect(await list.getByRole('button', { name: /^Burst \d+ / }).count()).toBe(500);
    // Told of the change once or twice (the renames may span two looks at the folder), not once a file.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(3);
  }, 120_000);
});
