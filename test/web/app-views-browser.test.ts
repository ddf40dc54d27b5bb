/**
 * MCP Apps views in the web UI, in real Chromium: the published basic example server's view renders in its sandbox
 * (on the tools page and in a chat card), receives the call's input and result, and its button's tool call goes
 * through the approval dialog and is audited as the app's; the published system monitor's view (from the example
 * config's script) shows this machine and polls its app-only tool, asked once for the run; the app-only tools never
 * reach the model; a view is
 * torn down before the page holding it goes; a view's fetch to an origin it did not declare is blocked; and a
 * hostile view reaches nothing of the page. One UI and one browser for the file.
 */
import { type FSWatcher, watch } from 'node:fs';
import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { startChatTurn } from '../helpers/chat-page.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { fixtureServer, repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { type ScreenshotFolder, screenshotFolder } from '../helpers/screenshot-folder.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';
import type { RunningUi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 20_000 };
const basicServer = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-basic-vanillajs',
  'dist',
  'index.js',
);

const monitorServer = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-system-monitor',
  'dist',
  'index.js',
);

let running: UiInChromium | undefined;
let ui: RunningUi | undefined;
let context: BrowserContext;
let page: Page;
const consoleLines: string[] = [];
let viewsFolder: string;
let stateWatcher: FSWatcher | undefined;
/** A port on this machine the fetcher view tries to reach under disguised names; every request to it is kept. */
let loopbackProbe: Server | undefined;
const loopbackRequests: string[] = [];
/** A temporary folder, or docs/screenshots when MCP_HOST_UPDATE_SCREENSHOTS=1 (see screenshot-folder.ts). */
let screenshots: ScreenshotFolder | undefined;

/** The view's own document, inside the sandbox proxy's frame. */
function viewFrame(tool: string, scope: Page | ReturnType<Page['locator']> = page): FrameLocator {
  return scope.frameLocator(`iframe[title="View of ${tool}"]`).last().frameLocator('iframe[title="MCP App view"]');
}

async function callByHand(tool: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${tool}`) }).click();
  // The view of an earlier call of the tool is taken down as this call's view takes its place: waiting for that keeps
  // the test from reaching into the earlier view as it goes (its frame closes under the click).
  const earlierViews = await page.locator(`iframe[title="View of ${tool}"]`).elementHandles();
  await page.getByRole('button', { name: `Call ${tool}` }).click();
  for (const view of earlierViews) await view.waitForElementState('hidden', WAIT);
}

/** Tells whoever waits that something they probe may have changed (a console line came, the state folder changed). */
const changes = {
  waiting: [] as Array<() => void>,
  notify(): void {
    for (const wake of changes.waiting.splice(0)) wake();
  },
  next(): Promise<void> {
    return new Promise((resolve) => changes.waiting.push(resolve));
  },
};

/** Probes again after each change, until `probe` finds something or the wait runs out. */
async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT.timeout;
  for (;;) {
    // Asked for before probing, so a change during the probe is not missed.
    const changed = changes.next();
    const found = await probe();
    if (found !== undefined) return found;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`never saw ${what}`);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([changed, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
  }
}

/** Reads the UI's own event stream until `until` matches, and returns everything read. */
async function readEvents(until: RegExp, signal: AbortSignal): Promise<string> {
  const response = await fetch(`${ui!.base}/api/events`, { headers: { authorization: `Bearer ${ui!.token}` }, signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += value;
      if (until.test(text)) return text;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

beforeAll(async () => {
  screenshots = await screenshotFolder();
  // Copies of the fixture views, so one can change after it was approved.
  viewsFolder = await temporaryDirectory();
  await cp(join(repoRoot, 'test', 'fixtures', 'views'), viewsFolder, { recursive: true });
  loopbackProbe = createServer((request, response) => {
    loopbackRequests.push(`${request.headers.host} ${request.url}`);
    response.end('reached');
  });
  await new Promise<void>((resolve) => loopbackProbe!.listen(0, '127.0.0.1', resolve));
  const config = await writeConfig({
    // The example config's script, so the example's prompts are the ones proved here.
    model: `scripted:${join(repoRoot, 'examples', 'scripts', 'mcp-apps.json')}`,
    mcpServers: {
      basic: { command: process.execPath, args: [basicServer, '--stdio'] },
      monitor: { command: process.execPath, args: [monitorServer, '--stdio'] },
      views: {
        command: process.execPath,
        args: [fixtureServer('app-views.mjs')],
        env: {
          APP_VIEWS_DIR: viewsFolder,
          APP_VIEWS_LOOPBACK_PORT: String((loopbackProbe.address() as AddressInfo).port),
        },
      },
    },
    permissions: {
      allow: ['views__fetcher', 'views__hostile', 'views__wanderer', 'views__extras', 'monitor__get-system-info'],
      // The model's call of the counter waits for the user, so its view is seen with the streamed input alone.
      ask: ['basic__get-time', 'views__counter'],
      deny: [],
    },
  });
  running = await startUiInChromium(['--config', config], {
    context: { viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
  });
  ({ ui, context, page } = running);
  page.on('console', (message) => {
    consoleLines.push(message.text());
    changes.notify();
  });
  // The audit log is written in the state folder.
  stateWatcher = watch(ui.stateDir, () => changes.notify());
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor(WAIT);
}, 90_000);

afterAll(async () => {
  stateWatcher?.close();
  await running?.stop();
  loopbackProbe?.closeAllConnections();
  await new Promise((resolve) => loopbackProbe?.close(resolve));
  await screenshots?.remove();
});

describe('MCP Apps views in Chromium', () => {
  it("renders the basic example's view for a call by hand, with the call's input and result", async () => {
    await goToUiPage(page, 'Tools', WAIT);
    await callByHand('basic__get-time');
    // The by-hand call is the user's own: no question; the view opens as the call starts.
    const view = viewFrame('basic__get-time');
    await view.getByText(/^\d{4}-\d{2}-\d{2}T/).waitFor(WAIT);
    await view.getByRole('button', { name: 'Get Server Time' }).waitFor(WAIT);
    await waitFor(
      async () => consoleLines.find((line) => line.startsWith('Received tool call input')),
      'the view log the tool input',
    );
    await waitFor(
      async () => consoleLines.find((line) => line.startsWith('Received tool call result')),
      'the view log the tool result',
    );
    // Served from the sandbox origin, another port than the UI's.
    const frameUrl = await page.locator('iframe[title="View of basic__get-time"]').getAttribute('src');
    expect(new URL(frameUrl!).origin).not.toBe(ui!.base);
    expect(await page.locator('iframe[title="View of basic__get-time"]').getAttribute('sandbox')).toBe(
      'allow-scripts allow-same-origin',
    );
    await page.screenshot({ path: screenshots!.file('app-view-tools') });
  });

  it("sends the view's own tool call through the approval dialog, and audits it as the app's", async () => {
    const view = viewFrame('basic__get-time');
    await view.getByRole('button', { name: 'Get Server Time' }).click();
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    await dialog
      .getByText(/basic__get-time/)
      .first()
      .waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    const record = await waitFor(
      async () =>
        (await auditRecords(ui!.stateDir)).find(
          (entry) => entry.type === 'tool-call' && entry.tool === 'basic__get-time' && entry.origin === 'app',
        ),
      'an audit record of the app call',
    );
    expect(record.decision).toBe('allow');
  });

  it('tears the view down before the page holding it goes', async () => {
    const closed = page.waitForRequest((request) => /\/api\/views\/[^/]+\/close$/.test(request.url()), WAIT);
    await goToUiPage(page, 'Servers', WAIT);
    const request = await closed;
    expect(JSON.parse(request.postData() ?? '{}')).toEqual({ answered: true });
    await waitFor(
      async () => consoleLines.find((line) => line === 'App is being torn down'),
      'the view answer its teardown',
    );
    expect(await page.locator('iframe[title="View of basic__get-time"]').count()).toBe(0);
  });

  it('renders the view in a chat card, asks before the call, and never offers the app-only tool to the model', async () => {
    const stop = new AbortController();
    const events = readEvents(/"type":"turn-done"/, stop.signal);
    await startChatTurn(page, 'What time is it?');
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    const card = page.getByRole('article', { name: 'Tool call basic__get-time' });
    await card.getByText('ok', { exact: true }).waitFor(WAIT);
    await viewFrame('basic__get-time', card)
      .getByText(/^\d{4}-\d{2}-\d{2}T/)
      .waitFor(WAIT);
    await page.getByText(/The server says it is/).waitFor(WAIT);
    await page.screenshot({ path: screenshots!.file('app-view-chat') });
    // What the view asks of the host is shown, bounded, and a link opens only when the user says so.
    const chatView = viewFrame('basic__get-time', card);
    await chatView.getByRole('button', { name: 'Send Message' }).click();
    const said = page.getByRole('list', { name: 'What the view of basic__get-time said' });
    await said.getByText('This is message text.').waitFor(WAIT);
    await said.getByText(/message for the chat \(not sent to the model\)/).waitFor(WAIT);
    await chatView.getByRole('button', { name: 'Open Link' }).click();
    const ask = page.getByRole('dialog', { name: 'The app asks to open a link' });
    await ask.getByText('modelcontextprotocol.io', { exact: true }).waitFor(WAIT);
    const pagesBefore = context.pages().length;
    await ask.getByRole('button', { name: "Don't open" }).click();
    await said.getByText('Did not open https://modelcontextprotocol.io/').waitFor(WAIT);
    expect(context.pages().length).toBe(pagesBefore);
    const streamed = await events.finally(() => stop.abort());
    const requests = streamed.split('\n').filter((line) => line.includes('"type":"provider-request"'));
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) {
      expect(line).toContain('basic__get-time');
      expect(line).not.toContain('views__bump');
    }
  });

  it("renders the system monitor example's view in a chat card, whose polling of its app-only tool asks once for the run", async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    const stop = new AbortController();
    const events = readEvents(/"type":"turn-done"/, stop.signal);
    await page.getByLabel('Message').fill('Show the system monitor');
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.getByRole('article', { name: 'Tool call monitor__get-system-info' });
    await card.getByText('ok', { exact: true }).waitFor(WAIT);
    const view = viewFrame('monitor__get-system-info', card);
    // The tool result reached the view: it shows this machine's name, read by the server.
    await view.locator('#info-hostname').getByText(hostname(), { exact: true }).waitFor(WAIT);
    await view.getByRole('heading', { name: 'CPU Usage' }).waitFor(WAIT);
    // The view starts polling its app-only tool at once; the first poll asks, and "for the run" covers the rest.
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    await dialog
      .getByText(/monitor__poll-system-stats/)
      .first()
      .waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Allow this tool for the run' }).click();
    await view
      .locator('#memory-percent')
      .getByText(/^\d+(\.\d+)?%$/)
      .waitFor(WAIT);
    await view.getByRole('button', { name: 'Stop' }).waitFor(WAIT);
    const polls = await waitFor(async () => {
      const found = (await auditRecords(ui!.stateDir)).filter(
        (entry) => entry.type === 'tool-call' && entry.tool === 'monitor__poll-system-stats',
      );
      return found.length >= 2 ? found : undefined;
    }, 'two audited polls');
    expect(polls.every((entry) => entry.origin === 'app' && entry.decision === 'allow')).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByText(/The system monitor's view above shows this machine live/).waitFor(WAIT);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshots!.file('app-view-system-monitor') });
    const streamed = await events.finally(() => stop.abort());
    const requests = streamed.split('\n').filter((line) => line.includes('"type":"provider-request"'));
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) {
      expect(line).toContain('monitor__get-system-info');
      expect(line).not.toContain('poll-system-stats');
    }
  });

  it('gives a view the arguments the model is still streaming, before the whole input', async () => {
    const scriptFile = join(await temporaryDirectory(), 'counter-script.json');
    await writeFile(
      scriptFile,
      JSON.stringify({
        scenarios: [
          {
            match: 'count from (\\d+)',
            turns: [
              { toolCalls: [{ name: 'views__counter', arguments: { start: '{{match.1}}' } }] },
              { text: 'The counter says {{lastToolResult}}.' },
            ],
          },
        ],
      }),
    );
    // The model is switched at once, before the new conversation's answer: the switch is the last choice and wins.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByLabel('Switch model').fill(`scripted:${scriptFile}`);
    await page.getByRole('button', { name: 'Use this model' }).click();
    await page
      .getByRole('status')
      .getByText(/counter-script\.json/)
      .waitFor(WAIT);
    await page.getByLabel('Message').fill('Please count from 12');
    await page.getByRole('button', { name: 'Send' }).click();
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    // The call waits for the user: the view has only what the model streamed, not the call's input.
    const card = page.getByRole('article', { name: 'Tool call views__counter' });
    const view = viewFrame('views__counter', card);
    await view.locator('#partial').getByText('{"start":12}').waitFor(WAIT);
    expect(await view.locator('#input').textContent()).toBe('(none yet)');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await view.locator('#input').getByText('{"start":12}').waitFor(WAIT);
    await view.getByText('count: 12').waitFor(WAIT);
    await page.getByText('The counter says count: 12.').waitFor(WAIT);
  });

  it("lets a view call its app-only tool, with the call's input and result shown in the view", async () => {
    await goToUiPage(page, 'Tools', WAIT);
    await page.getByRole('button', { name: /^views__counter/ }).click();
    await page.getByRole('spinbutton', { name: /^start/ }).fill('5');
    await page.getByRole('button', { name: 'Call views__counter' }).click();
    const view = viewFrame('views__counter');
    await view.getByText('{"start":5}').waitFor(WAIT);
    await view.getByText('count: 5').waitFor(WAIT);
    await view.getByRole('button', { name: 'Bump by 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'A tool call needs your approval' });
    await dialog.waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await view.getByText('bumped by 2').waitFor(WAIT);
    const record = await waitFor(
      async () =>
        (await auditRecords(ui!.stateDir)).find((entry) => entry.type === 'tool-call' && entry.tool === 'views__bump'),
      'an audit record of the bump',
    );
    expect(record.origin).toBe('app');
  });

  it('pins a view on first sight, and shows a changed one only after it is approved again', async () => {
    await appendFile(join(viewsFolder, 'counter.html'), '<!-- changed after approval -->\n');
    await page.getByRole('button', { name: 'Call views__counter' }).click();
    const dialog = page.getByRole('dialog', { name: 'A view changed since you approved it' });
    await dialog.waitFor(WAIT);
    await dialog
      .getByText(/ui:\/\/views\/counter\.html/)
      .first()
      .waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Keep withheld' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /changed since you approved it and was not approved/ })
      .waitFor(WAIT);
    expect(await page.locator('iframe[title="View of views__counter"]').count()).toBe(0);

    await page.getByRole('button', { name: 'Call views__counter' }).click();
    await dialog.waitFor(WAIT);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await viewFrame('views__counter').getByText('count: 5').waitFor(WAIT);
  });

  it('blocks a fetch to an origin the view did not declare, and refuses loopback origins and device permissions', async () => {
    await callByHand('views__fetcher');
    const view = viewFrame('views__fetcher');
    await view.getByText('done').waitFor(WAIT);
    // This machine in disguise: Chromium takes every `.localhost` name to loopback, and a wildcard over numbers
    // matches 127.0.0.1. Each attempt had settled by "done", so a request that got through has arrived by now.
    expect(loopbackRequests).toEqual([]);
    await view.getByText(/blocked by CSP: https:\/\/undeclared\.example\.org/).waitFor(WAIT);
    expect(await view.getByText(/blocked by CSP: https:\/\/api\.example\.com/).count()).toBe(0);
    const facts = page.getByRole('region', { name: 'View of views__fetcher' });
    await facts.getByText('Sandbox').click();
    await facts.getByText('https://api.example.com', { exact: true }).waitFor(WAIT);
    await facts.getByText(/http:\/\/127\.0\.0\.1:1 is this machine/).waitFor(WAIT);
    const port = (loopbackProbe!.address() as AddressInfo).port;
    await view.getByText(`blocked by CSP: http://probe.localhost:${port}/by-name`, { exact: false }).waitFor(WAIT);
    await view.getByText(`blocked by CSP: http://127.0.0.1:${port}/by-wildcard`, { exact: false }).waitFor(WAIT);
    for (const disguised of [
      `http://*.localhost:${port}`,
      `http://probe.localhost:${port}`,
      `http://*.0.0.1:${port}`,
    ]) {
      await facts.getByText(`${disguised} is this machine`, { exact: false }).waitFor(WAIT);
    }
    await facts.getByText('none granted (asked for: camera)').waitFor(WAIT);
  });

  it('the sandbox origin answers only its own Host, known views, and the UI as parent', async () => {
    const src = await page.locator('iframe[title="View of views__fetcher"]').getAttribute('src');
    const proxy = new URL(src!);
    const good = await fetch(proxy);
    expect(good.status).toBe(200);
    expect(good.headers.get('content-security-policy')).toContain(`frame-ancestors ${ui!.base}`);
    expect(await good.text()).not.toMatch(/<script>/);
    const unknown = new URL(proxy);
    unknown.pathname = '/proxy/not-a-view';
    expect((await fetch(unknown)).status).toBe(404);
    const foreign = new URL(proxy);
    foreign.searchParams.set('parent', 'http://evil.example');
    expect((await fetch(foreign)).status).toBe(403);
    // A DNS-rebinding page reaches the port under its own name.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const sent = request(proxy, { headers: { host: `evil.example:${proxy.port}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(status).toBe(403);
  });

  it('gives a hostile view nothing of the page: no document, no navigation, no cookie, no forged messages', async () => {
    const before = page.url();
    const auditBefore = (await auditRecords(ui!.stateDir)).length;
    await callByHand('views__hostile');
    const view = viewFrame('views__hostile');
    await view.getByText(/^forged message:/).waitFor(WAIT);
    const lines = await view.getByRole('listitem').allTextContents();
    expect(lines).toEqual([
      'parent document: refused (SecurityError)',
      'top document: refused (SecurityError)',
      'cookie: refused (SecurityError)',
      'storage: refused (SecurityError)',
      'top location read: refused (SecurityError)',
      expect.stringMatching(/^top navigation: refused/),
      'forged message: no answer',
    ]);
    expect(page.url()).toBe(before);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const since = (await auditRecords(ui!.stateDir)).slice(auditBefore);
    expect(since.filter((entry) => entry.tool === 'views__bump')).toEqual([]);
  });

  it('closes a view that leaves its document, and gives the new document no channel', async () => {
    await goToUiPage(page, 'Tools', WAIT);
    const calls: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (/\/api\/views\/[^/]+\/call$/.test(request.url())) calls.push(request.url());
    };
    page.on('request', onRequest);
    try {
      const closed = page.waitForRequest((request) => /\/api\/views\/[^/]+\/close$/.test(request.url()), WAIT);
      const second = page.waitForResponse((response) => /\/view\/[^/?]+\?.*second=1/.test(response.url()), WAIT);
      await callByHand('views__wanderer');
      await closed;
      // The view's URL gives its document once: the second load gets a plain refusal, no script.
      expect((await second).status()).toBe(410);
      expect(consoleLines).not.toContain('second document posting');
      const region = page.getByRole('region', { name: 'View of views__wanderer' });
      await region.getByText('The view closed itself.').waitFor(WAIT);
      expect(await page.locator('iframe[title="View of views__wanderer"]').count()).toBe(0);
      // Nothing of the second document reached the host.
      expect(calls).toEqual([]);
      expect(await page.getByRole('dialog').count()).toBe(0);
      const bumps = (await auditRecords(ui!.stateDir)).filter(
        (entry) => entry.tool === 'views__bump' && JSON.stringify(entry).includes('"by":7'),
      );
      expect(bumps).toEqual([]);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('shows a view full screen or in picture in picture when it asks, saves its file only when the user says so, and reads its own resource', async () => {
    await goToUiPage(page, 'Tools', WAIT);
    await callByHand('views__extras');
    const view = viewFrame('views__extras');
    const frame = page.locator('iframe[title="View of views__extras"]');
    await view.getByRole('button', { name: 'Full screen' }).click();
    await view.locator('#mode').getByText('fullscreen').waitFor(WAIT);
    await view.locator('#context').getByText('displayMode fullscreen').waitFor(WAIT);
    const bar = page.getByRole('toolbar', { name: 'Display mode' });
    await bar.getByText(/Full screen: view of/).waitFor(WAIT);
    const full = await frame.boundingBox();
    expect(full!.width).toBeGreaterThan(1200);
    expect(full!.height).toBeGreaterThan(700);
    // The host's bar stays above the view; its button (or Escape, with the focus on the page) brings it back inline.
    await bar.getByRole('button', { name: 'Back to the chat' }).click();
    await view.locator('#context').getByText('displayMode inline').waitFor(WAIT);
    expect(await bar.count()).toBe(0);
    await view.getByRole('button', { name: 'Picture in picture' }).click();
    await view.locator('#mode').getByText('pip').waitFor(WAIT);
    const pip = await frame.boundingBox();
    expect(pip!.width).toBeLessThan(500);
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('Escape');
    await view.locator('#context').getByText('displayMode inline').waitFor(WAIT);

    // A download waits for the user; refused, nothing is saved.
    const ask = page.getByRole('dialog', { name: 'The app asks to save files' });
    await view.getByRole('button', { name: 'Save a report' }).click();
    await ask.getByText('report.txt', { exact: true }).waitFor(WAIT);
    await ask.getByText('(text/html, 19 bytes)').waitFor(WAIT);
    await ask.getByRole('button', { name: "Don't save" }).click();
    await view.locator('#download').getByText('refused').waitFor(WAIT);
    await view.getByRole('button', { name: 'Save a report' }).click();
    const saved = page.waitForEvent('download', WAIT);
    await ask.getByRole('button', { name: 'Save', exact: true }).click();
    const file = await saved;
    expect(file.suggestedFilename()).toBe('report.txt');
    expect(await readFile((await file.path())!, 'utf8')).toBe('hello from the view');
    await view.locator('#download').getByText('saved').waitFor(WAIT);
    // Saved, not opened: no page was opened for it.
    expect(context.pages().length).toBe(1);

    // The view reads a resource of its own server through the host.
    await view.getByRole('button', { name: 'Read a resource' }).click();
    await view.locator('#resource').getByText('text/html;profile=mcp-app').waitFor(WAIT);
  });

  it('shows the text-direction controls in what a view says and in the type of a file it asks to save as escapes', async () => {
    await goToUiPage(page, 'Tools', WAIT);
    await callByHand('views__extras');
    await viewFrame('views__extras').getByRole('button', { name: 'Say and save with direction controls' }).click();
    const ask = page.getByRole('dialog', { name: 'The app asks to save files' });
    await ask.getByText('reversed.txt', { exact: true }).waitFor(WAIT);
    const region = page.getByRole('region', { name: 'View of views__extras' }).last();
    await region
      .getByRole('list', { name: 'What the view of views__extras said' })
      .getByText(/notice-marker/)
      .waitFor(WAIT);
    const shown = (await region.textContent()) ?? '';
    await ask.getByRole('button', { name: "Don't save" }).click();
    expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
    expect(shown).toContain('said exe.\\u202etxt\\u202c \\u2066isolated\\u2069 notice-marker');
    expect(shown).toContain('(text/plain exe.\\u202etxt\\u202c \\u2066isolated\\u2069, 8 bytes)');
  });

  it("asks about one of a view's links at a time: a second one asked meanwhile is refused, not put in the first one's place", async () => {
    const view = viewFrame('views__extras');
    await view.getByRole('button', { name: 'Ask two links' }).click();
    await view.locator('#links').getByText('second refused').waitFor(WAIT);
    const ask = page.getByRole('dialog', { name: 'The app asks to open a link' });
    await ask.getByText('first.example', { exact: true }).waitFor(WAIT);
    const said = page.getByRole('list', { name: 'What the view of views__extras said' });
    await said.getByText("Refused https://second.example/: another question of the view's is waiting").waitFor(WAIT);
    await ask.getByRole('button', { name: "Don't open" }).click();
    await view.locator('#links').getByText('second refused, first refused').waitFor(WAIT);
    await said.getByText('Did not open https://first.example/').waitFor(WAIT);
    expect(await ask.count()).toBe(0);
    expect(context.pages().length).toBe(1);
  });
});
