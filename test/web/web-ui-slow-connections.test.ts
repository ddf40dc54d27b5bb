/**
 * The UI and its sandbox origin hold few connections that have not sent their headers: at most 64 each (the oldest
 * dropped for a new one), each closed 10 s after it opened, so the page is still served while something on this
 * machine opens them by the hundred and sends a request a byte at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedCalculatorConfig } from '../helpers/calculator-config.js';
import { destroyAll, type HeldSocket, openHeldSockets, someClosed } from '../helpers/slow-sockets.js';
import { callUiApi, type RunningUi, startUi } from '../helpers/web-ui-process.js';

/** The UI's bounds (ui-server.ts). */
const MAX_BEFORE_HEADERS = 64;
const HEADERS_TIMEOUT_MS = 10_000;
const OVERFLOW = 10;
/** What the machine may add to a timeout: the tests run on busy shared machines. */
const SLACK_MS = 5_000;

let ui: RunningUi;
const held: HeldSocket[] = [];

beforeAll(async () => {
  const config = await trustedCalculatorConfig();
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  destroyAll(held);
  await ui?.stop();
});

/** Fills a listener past its cap with sockets stuck in their request line; resolves once the overflow is dropped. */
async function flood(base: string): Promise<HeldSocket[]> {
  const sockets = await openHeldSockets(base, MAX_BEFORE_HEADERS + OVERFLOW, 'GET / HT');
  held.push(...sockets);
  await someClosed(sockets, OVERFLOW);
  return sockets;
}

function expectBounded(sockets: readonly HeldSocket[]): void {
  const early = sockets.filter((entry) => entry.closedAt! - entry.openedAt < HEADERS_TIMEOUT_MS - 1_000);
  expect(early.length).toBeGreaterThanOrEqual(OVERFLOW);
  expect(early.length).toBeLessThanOrEqual(OVERFLOW + 4);
  for (const entry of sockets) expect(entry.closedAt! - entry.openedAt).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
}

describe('mcp-host ui, against connections that send their request slowly', () => {
  it('drops the oldest past 64, answers the page meanwhile, and closes the rest after 10 s', async () => {
    const page = await fetch(ui.url);
    const sandboxOrigin = /frame-src (http:\/\/\S+?)[;\s]/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(sandboxOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await page.text();

    const [onUi, onSandbox] = await Promise.all([flood(ui.base), flood(sandboxOrigin!)]);
    const state = await callUiApi(ui, '/api/state');
    expect(state).toMatchObject({ status: 200, body: { phase: 'ready' } });
    const proxyScript = await fetch(`${sandboxOrigin}/proxy.js`);
    expect(proxyScript.status).toBe(200);
    await proxyScript.text();

    await Promise.all([...onUi, ...onSandbox].map((entry) => entry.closed));
    expectBounded(onUi);
    expectBounded(onSandbox);
  }, 60_000);
});
