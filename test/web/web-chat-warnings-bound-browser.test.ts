/**
 * The web UI's chat in real Chromium keeps the warnings of the calls it follows live within the bound the server
 * keeps a conversation's in: a server that dies in the middle of many calls made together, with a long stderr line,
 * has each of them sent once more with that line in its warning; the page keeps the latest calls' warnings up to
 * 1,000,000 characters in all and, in the place of the older calls' ones, the note the server puts there.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROPPED_WARNINGS_NOTE, MAX_CONVERSATION_WARNING_CHARS } from '../../src/web/call-warning-limit.js';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';

/** Calls made together: each one's warning quotes the 60,000-character line (cut to 50,000), 2.25 million in all. */
const CALLS = 45;
const WAIT = { timeout: 60_000 };

let started: UiInChromium | undefined;

beforeAll(async () => {
  const directory = await temporaryDirectory('mcp-host-ui-warnings-');
  const config = join(directory, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      model: 'scripted:script.json',
      maxParallelCalls: CALLS,
      permissions: { allow: ['loud__*'] },
      mcpServers: {
        loud: {
          command: process.execPath,
          args: [fixtureServer('crash-mid-call.mjs')],
          env: {
            EXITED_ONCE_FILE: join(directory, 'exited-once'),
            CALLS_IN_FLIGHT_TO_EXIT: String(CALLS),
            STDERR_LINE_CHARS: '60000',
          },
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
            { toolCalls: Array.from({ length: CALLS }, () => ({ name: 'loud__read_together_exits', arguments: {} })) },
            { text: 'All read.' },
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

describe("the live chat page's call warnings", () => {
  it('keeps the latest calls’ within the bound and the note in place of the earlier ones', async () => {
    const page = started!.page;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('read them all');
    await page.getByRole('button', { name: 'Send' }).click();
    const live = page.locator('.turn');
    await live.getByText('All read.').waitFor(WAIT);

    const warnings = await live
      .locator('.tool-card')
      .evaluateAll((cards) =>
        cards.map((card) => [...card.querySelectorAll('.notes.warnings li')].map((item) => item.textContent ?? '')),
      );
    expect(warnings).toHaveLength(CALLS);
    const kept = warnings.flat().filter((warning) => warning !== DROPPED_WARNINGS_NOTE);
    const chars = kept.reduce((sum, warning) => sum + warning.length, 0);
    expect(chars).toBeGreaterThan(0);
    expect(chars).toBeLessThanOrEqual(MAX_CONVERSATION_WARNING_CHARS);
    const dropped = warnings.filter((card) => card.length === 1 && card[0] === DROPPED_WARNINGS_NOTE);
    expect(dropped.length).toBeGreaterThan(0);
    // Each call shows its warnings or the note.
    expect(warnings.every((card) => card.length > 0)).toBe(true);
  }, 180_000);
});
