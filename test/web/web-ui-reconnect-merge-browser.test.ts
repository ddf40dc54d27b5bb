/**
 * Pages in real Chromium that load afresh when their event stream reconnects, at the moment something else happens:
 * what arrived live in the same millisecond as the last thing loaded stays shown (records and log messages are told
 * apart by the host's count of them, not by their time, and that count goes on when the audit log is rotated), and a
 * message being sent at that moment stays in the conversation, a running turn shows what it did while the page
 * was cut off, and the chat's Stop stops only the turn the page shows running. The page's first event stream ends at once and its next one waits for the test, so the
 * test chooses when the page reconnects; what the page loads again is held where the test needs it.
 */
import { appendFile, copyFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AuditEntryView, ChatStateView, ServerLogView } from '../../src/web/api-types.js';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { fixtureServer, trustedServer, writeScriptedConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { openUiPage, startUiAndChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';
import { callUiApi, type RunningUi, waitForNoTurnRunning } from '../helpers/web-ui-process.js';

/** The page's event stream, whatever its address's query (the token). */
const isEventStream = (url: URL): boolean => url.pathname === '/api/events';

const WAIT = { timeout: 15_000 };

const started = useAroundTests(async () => {
  const config = await writeScriptedConfig(
    'mcp-host-ui-reconnect-merge-',
    {
      scenarios: [
        {
          match: 'Add, then divide',
          turns: [
            { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 6, b: 6 } }] },
            { toolCalls: [{ name: 'calculator__divide', arguments: { a: 12, b: 4 } }] },
            { text: 'Divided: {{lastToolResult}}.' },
          ],
        },
      ],
      fallbackText: 'answer-marker',
    },
    {
      mcpServers: { burst: trustedServer(fixtureServer('log-burst.mjs')), calculator: trustedCalculator },
      permissions: { allow: ['burst__*', 'calculator__add_numbers'], ask: ['calculator__divide'] },
    },
  );
  return startUiAndChromium(['--config', config]);
});

/** A request the page made, held unanswered until the test lets it go. */
interface Held {
  arrived: Promise<Route>;
}

/** Holds the page's `nth` request (from 1, counted from now) to `path` with `method`; the others go to the host. */
async function holdRequest(page: Page, path: string, nth: number, method = 'GET'): Promise<Held> {
  let seen = 0;
  let arrive!: (route: Route) => void;
  const arrived = new Promise<Route>((resolve) => {
    arrive = resolve;
  });
  await page.route(`**${path}`, async (route) => {
    if (route.request().method() !== method || new URL(route.request().url()).pathname !== path)
      return route.fallback();
    seen += 1;
    if (seen === nth) arrive(route);
    else await route.continue();
  });
  return { arrived };
}

/**
 * Opens the app on `pageName` with its event stream under the test's hand: the first stream opens and ends at once
 * (the page has had a stream, so its next is a reconnection), and the next waits for `reconnect`.
 */
async function openWithHeldReconnect(pageName: string): Promise<{ page: Page; reconnect: () => Promise<void> }> {
  const { page } = await openUiPage(started());
  // The app opens its event stream once its token is settled, which can be well after it shows: counted from here,
  // that stream would be the first, and the held one the first of the app loaded below, which is no reconnection.
  // Leaving the app before counting leaves only the streams of the app loaded below.
  await page.goto('about:blank');
  let streams = 0;
  let second!: (route: Route) => void;
  const secondArrived = new Promise<Route>((resolve) => {
    second = resolve;
  });
  await page.route(isEventStream, async (route) => {
    streams += 1;
    if (streams === 1) {
      await route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 10\n\n' });
    } else if (streams === 2) {
      second(route);
    } else {
      await route.continue();
    }
  });
  await page.goto(started().ui.url);
  await goToUiPage(page, pageName, WAIT);
  const held = await secondArrived;
  return { page, reconnect: () => held.continue() };
}

/** Reads the host's event stream from now on, to know when something was published. */
async function followUiEvents(running: RunningUi): Promise<{ until: (pattern: RegExp) => Promise<void> }> {
  const response = await fetch(`${running.base}/api/events`, { headers: { authorization: `Bearer ${running.token}` } });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    async until(pattern) {
      try {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the event stream ended before ${pattern}`);
          text += value;
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    },
  };
}

describe('a page that loads afresh as its event stream reconnects', () => {
  it('keeps an audit record that arrived live in the same millisecond as the last one it loaded', async () => {
    const running = started().ui;
    const auditFile = join(running.stateDir, 'audit.jsonl');
    const record = (detail: string, time: string) =>
      `${JSON.stringify({ type: 'trust-change', time, runId: 'another-run', server: 'elsewhere', change: 'server-approved', by: 'command-line', detail })}\n`;
    const sameTime = new Date().toISOString();
    const { page, reconnect } = await openWithHeldReconnect('Audit');
    const heldAudit = await holdRequest(page, '/api/audit', 1);
    try {
      // Written while the page follows nothing: it shows only once the audit is loaded again.
      const published = await followUiEvents(running);
      await appendFile(auditFile, record('loaded-marker', sameTime));
      await published.until(/loaded-marker/);
      // What the host answers now, given to the page's next load of the audit after the next record went by live.
      const loaded = await callUiApi<Array<{ detail?: string }>>(running, '/api/audit');
      expect(loaded.body.at(-1)?.detail).toBe('loaded-marker');

      await reconnect();
      const route = await heldAudit.arrived;
      await appendFile(auditFile, record('live-marker', sameTime));
      const rows = page.getByRole('row');
      await rows.filter({ hasText: 'live-marker' }).waitFor(WAIT);
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(loaded.body) });
      await rows.filter({ hasText: 'loaded-marker' }).waitFor(WAIT);
      // A later record shows once the page has dealt with the load above.
      await appendFile(auditFile, record('later-marker', new Date(Date.parse(sameTime) + 1_000).toISOString()));
      await rows.filter({ hasText: 'later-marker' }).waitFor(WAIT);
      expect(await rows.filter({ hasText: 'live-marker' }).count()).toBe(1);
      expect(await rows.filter({ hasText: 'loaded-marker' }).count()).toBe(1);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('keeps each audit record once across a rotation of the log, the ones before it too, each with its own number', async () => {
    const running = started().ui;
    const auditFile = join(running.stateDir, 'audit.jsonl');
    const record = (detail: string, padding = '') =>
      `${JSON.stringify({ type: 'trust-change', time: new Date().toISOString(), runId: 'another-run', server: 'elsewhere', change: 'server-approved', by: 'command-line', detail, padding })}\n`;
    const { page, reconnect } = await openWithHeldReconnect('Audit');
    try {
      // Written while the page follows nothing, then rotated away as logrotate's copytruncate does: copied, then
      // emptied, while the host goes on appending to the same file.
      const published = await followUiEvents(running);
      // Long, so that the log stays shorter after the rotation than before it until the host has read it again.
      await appendFile(auditFile, record('before-rotation-marker', 'x'.repeat(4_000)));
      await published.until(/before-rotation-marker/);
      await copyFile(auditFile, `${auditFile}.1`);
      await truncate(auditFile, 0);
      const publishedAfter = await followUiEvents(running);
      const called = await callUiApi(running, '/api/tools/call', {
        name: 'burst__burst',
        arguments: { label: 'call-after-rotation-marker', count: 1 },
      });
      expect(called.status, JSON.stringify(called.body)).toBe(200);
      await publishedAfter.until(/"type":"audit".*call-after-rotation-marker/);

      // The page loads the audit afresh: what it holds from before the rotation is no longer in the log file.
      await reconnect();
      const rows = page.getByRole('row');
      await rows.filter({ hasText: 'call-after-rotation-marker' }).waitFor(WAIT);
      await rows.filter({ hasText: 'before-rotation-marker' }).waitFor(WAIT);
      await appendFile(auditFile, record('live-after-rotation-marker'));
      await rows.filter({ hasText: 'live-after-rotation-marker' }).waitFor(WAIT);
      for (const marker of ['before-rotation-marker', 'call-after-rotation-marker', 'live-after-rotation-marker']) {
        expect(await rows.filter({ hasText: marker }).count(), marker).toBe(1);
      }

      const loaded = (await callUiApi<AuditEntryView[]>(running, '/api/audit')).body;
      const numbers = loaded.map((entry) => entry.sequence);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(new Set(numbers).size).toBe(numbers.length);
      expect(loaded.map((entry) => entry.json).join('\n')).toMatch(
        /before-rotation-marker[\s\S]*call-after-rotation-marker[\s\S]*live-after-rotation-marker/,
      );
    } finally {
      await page.close();
    }
  }, 60_000);

  it('keeps the log messages that arrived live in the same millisecond as the last one it loaded', async () => {
    const running = started().ui;
    const { page, reconnect } = await openWithHeldReconnect('Servers');
    const heldLogs = await holdRequest(page, '/api/server-logs', 1);
    try {
      const burst = async (label: string, count: number) => {
        const called = await callUiApi(running, '/api/tools/call', {
          name: 'burst__burst',
          arguments: { label, count },
        });
        expect(called.status, JSON.stringify(called.body)).toBe(200);
      };
      // Sent while the page follows nothing: it shows only once the logs are loaded again.
      await burst('unseen-marker', 1);
      await reconnect();
      const route = await heldLogs.arrived;
      const lines = page.getByRole('region', { name: /^burst/ }).locator('ol.log li');
      await burst('burst-marker', 30);
      await lines.filter({ hasText: 'burst-marker 30' }).waitFor(WAIT);
      // The host's messages as they were when only part of the burst had arrived: up to one of its messages that
      // arrived in the same millisecond as the next.
      const logs = (await callUiApi<ServerLogView[]>(running, '/api/server-logs')).body;
      const cut = logs.findIndex(
        (entry, index) => entry.text.startsWith('burst-marker') && logs[index + 1]?.time === entry.time,
      );
      expect(cut, 'two messages of the burst arrived in the same millisecond').toBeGreaterThan(0);
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(logs.slice(0, cut + 1)),
      });
      await lines.filter({ hasText: 'unseen-marker 1' }).waitFor(WAIT);
      for (let index = 1; index <= 30; index += 1) {
        expect(await lines.filter({ hasText: new RegExp(`burst-marker ${index}$`) }).count(), `message ${index}`).toBe(
          1,
        );
      }
    } finally {
      await page.close();
    }
  }, 60_000);

  it('shows what its running turn did while it was cut off, and every call of the turn once it ended', async () => {
    const running = started().ui;
    const { page, reconnect } = await openWithHeldReconnect('Chat');
    try {
      await page.getByRole('button', { name: 'New conversation' }).click();
      await page.getByLabel('Message').fill('Add, then divide');
      await page.getByRole('button', { name: 'Send' }).click();
      // The first call made and ended, and the second asked about, while the page hears nothing.
      await waitUntil(
        async () => (await callUiApi<unknown[]>(running, '/api/approvals')).body.length === 1,
        'the second call to be asked about',
      );
      await reconnect();
      const before = page.getByRole('list', { name: 'What the turn did before this page came' });
      await before.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' }).waitFor(WAIT);

      const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
      await dialog.getByRole('button', { name: 'Allow once', disabled: false }).waitFor(WAIT);
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      const earlier = page.getByRole('list', { name: 'Earlier messages' });
      await earlier.getByText('Divided: 3.').waitFor(WAIT);
      await earlier.getByRole('article', { name: 'Tool call calculator__add_numbers [1]' }).waitFor(WAIT);
      await earlier.getByRole('article', { name: 'Tool call calculator__divide [2]' }).waitFor(WAIT);
    } finally {
      await page.close();
      // The next test starts on an empty conversation.
      await callUiApi(running, '/api/sessions/new', {});
    }
  }, 60_000);

  it('stops with its Stop the turn it shows running, not one another tab started after that one ended', async () => {
    const running = started().ui;
    const { page } = await openWithHeldReconnect('Chat');
    try {
      await page.getByRole('button', { name: 'New conversation' }).click();
      await page.getByLabel('Message', { exact: true }).fill('first-turn-marker');
      await page.getByRole('button', { name: 'Send' }).click();
      // The page's turn ends unheard, and another tab's turn starts and waits for approval.
      await waitUntil(async () => {
        const state = (await callUiApi<ChatStateView>(running, '/api/chat')).body;
        return state.running === undefined && state.session?.messages.length === 2;
      }, "the page's turn to end");
      const other = await callUiApi<{ turnId: string }>(running, '/api/chat', { text: 'Add, then divide' });
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      await waitUntil(
        async () => (await callUiApi<unknown[]>(running, '/api/approvals')).body.length === 1,
        "the other tab's turn to wait",
      );

      const stopped = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/chat/cancel');
      await page.getByRole('button', { name: 'Stop' }).click();
      expect(await (await stopped).json()).toEqual({ cancelled: false });
      expect((await callUiApi<ChatStateView>(running, '/api/chat')).body.running?.turnId).toBe(other.body.turnId);
    } finally {
      await page.close();
      await callUiApi(running, '/api/chat/cancel', {});
      await waitForNoTurnRunning(running, 'the turn to stop');
      // The next test starts on an empty conversation.
      await callUiApi(running, '/api/sessions/new', {});
    }
  }, 60_000);

  it('keeps a message being sent at that moment, and follows its turn', async () => {
    const running = started().ui;
    const { page, reconnect } = await openWithHeldReconnect('Chat');
    const heldSend = await holdRequest(page, '/api/chat', 1, 'POST');
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    const made = (from: number, method: string, path: string) =>
      requests.slice(from).filter((request) => request.method() === method && new URL(request.url()).pathname === path);
    try {
      await page.getByLabel('Message').fill('sent-at-reconnect-marker');
      await page.getByRole('button', { name: 'Send' }).click();
      const send = await heldSend.arrived;
      const said = page.locator('.user-message').filter({ hasText: 'sent-at-reconnect-marker' });
      await said.waitFor(WAIT);
      const before = requests.length;
      await reconnect();
      // The page loads what it shows again (its tools among them); a read of the conversation made with them is
      // answered before the message reaches the host.
      await waitUntil(() => made(before, 'GET', '/api/tools').length > 0, 'the page to load its tools again');
      await made(before, 'GET', '/api/tools')[0]!.response();
      for (const read of made(before, 'GET', '/api/chat')) await read.response();
      await send.continue();
      await waitForNoTurnRunning(running, 'the turn');
      // The turn as it ran, or the transcript it ended in: the message and its answer, once each.
      const answer = page.locator('.assistant-message').filter({ hasText: 'answer-marker' });
      await answer.waitFor(WAIT);
      expect(await said.count()).toBe(1);
      expect(await answer.count()).toBe(1);
    } finally {
      await page.close();
    }
  }, 60_000);
});
