/**
 * The UI's token stays with the UI's own origin, in real Chromium. A browser keeps cookies per host name, not per
 * port: a cookie the UI set for 127.0.0.1 would be sent to any other server on 127.0.0.1 the user's browser visits
 * (another user's, a dev server showing what it was given), which could then drive the UI's API with it, and a
 * second UI would overwrite the first one's. Here a neighbour server on another port serves a page the browser
 * opens, the browser is sent to the UI with a wrong token, and a second UI is opened beside the first.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleServer, writeConfig } from '../helpers/project.js';
import { startUiInChromium, type UiInChromium } from '../helpers/web-ui-in-chromium.js';
import { type RunningUi, startUi } from '../helpers/web-ui-process.js';

const WAIT = { timeout: 15_000 };

let running: UiInChromium | undefined;
let second: RunningUi | undefined;
let neighbour: Server | undefined;
let config: string;
/** Every request the neighbour server got: its path and headers. */
const neighbourRequests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
let probed: () => void;
const probeArrived = new Promise<void>((resolve) => {
  probed = resolve;
});

beforeAll(async () => {
  config = await writeConfig({
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
  });
  neighbour = createServer((request, response) => {
    neighbourRequests.push({ url: request.url ?? '', headers: request.headers });
    if (request.url === '/probe') {
      response.end('seen');
      probed();
      return;
    }
    // A page of its own that asks its own server for something, as any page does.
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>neighbour</title><script>fetch("/probe")</script>');
  });
  await new Promise<void>((resolve) => neighbour!.listen(0, '127.0.0.1', resolve));
  running = await startUiInChromium(['--config', config]);
  await running.page.getByRole('heading', { name: 'calculator' }).waitFor(WAIT);
}, 90_000);

afterAll(async () => {
  await running?.stop();
  await second?.stop();
  neighbour?.closeAllConnections();
  await new Promise((resolve) => neighbour?.close(resolve));
});

describe('the web UI token', () => {
  it('is not sent to another server on the same address', async () => {
    const { port } = neighbour!.address() as AddressInfo;
    const page = await running!.context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await probeArrived;
    await page.close();
    expect(neighbourRequests.map((request) => request.url)).toContain('/probe');
    for (const request of neighbourRequests) {
      expect(JSON.stringify(request.headers)).not.toContain(running!.ui.token);
    }
  });

  it('is kept when the browser is sent to the address with a wrong one, as any site may send it', async () => {
    const sent = await running!.context.newPage();
    await sent.goto(`${running!.ui.base}/?token=not-this-run-s-token#/tools`);
    await sent.getByRole('heading', { level: 1, name: 'Tools' }).waitFor(WAIT);
    await sent.getByRole('button', { name: /^calculator__add_numbers/ }).waitFor(WAIT);
    expect(new URL(sent.url()).search).toBe('');
    await sent.close();
    const { page } = running!;
    await page.reload();
    await page.getByRole('heading', { name: 'calculator' }).waitFor(WAIT);
  });

  it('of a first UI still works once a second UI is opened in the same browser', async () => {
    second = await startUi(['--config', config]);
    const other = await running!.context.newPage();
    await other.goto(second.url);
    await other.getByRole('heading', { name: 'calculator' }).waitFor(WAIT);
    await other.close();
    const { page } = running!;
    await page.reload();
    await page.getByRole('heading', { name: 'calculator' }).waitFor(WAIT);
    expect(await page.getByText('needs the token').count()).toBe(0);
  });
});
