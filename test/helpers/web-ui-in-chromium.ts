/**
 * What every browser test of the web UI sets up: `mcp-host ui` and a real Chromium, started side by side, and a page
 * on the UI once the token page has moved on to the app; and what it tears down, the browser first (its pages hold
 * the UI's event streams open), then the UI. A start that fails part way stops what it did start before it throws, so
 * no browser or UI outlives a failed set-up; `stop` never throws, so an `afterAll` that calls it stops both whatever
 * the tests did. `useAroundTests` does both around a test file's tests; `useScriptedUiInChromium` for a UI whose
 * model is scripted.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './launch-chromium.js';
import { writeScriptedConfig } from './project.js';
import { type RunningUi, startUi } from './web-ui-process.js';

type StartUiOptions = Parameters<typeof startUi>[1];

/** How long the app may take to show once the page is opened. */
const APP_WAIT = { timeout: 15_000 };

export interface UiAndChromium {
  ui: RunningUi;
  browser: Browser;
  /** Closes the browser, then stops the UI; calling it again waits for the same stop. */
  stop: () => Promise<void>;
}

export interface UiInChromium extends UiAndChromium {
  context: BrowserContext;
  /** Open on the app. */
  page: Page;
}

/** Starts the UI with `args` and Chromium at once; when either fails, the other is stopped before this throws. */
export async function startUiAndChromium(args: string[], options?: StartUiOptions): Promise<UiAndChromium> {
  const [ui, browser] = await Promise.allSettled([startUi(args, options), launchChromium()]);
  if (ui.status === 'fulfilled' && browser.status === 'fulfilled') {
    let stopping: Promise<void> | undefined;
    const stop = async () => {
      await browser.value.close().catch(() => undefined);
      await ui.value.stop();
    };
    return { ui: ui.value, browser: browser.value, stop: () => (stopping ??= stop()) };
  }
  if (browser.status === 'fulfilled') await browser.value.close().catch(() => undefined);
  if (ui.status === 'fulfilled') await ui.value.stop();
  throw ui.status === 'rejected' ? ui.reason : (browser as PromiseRejectedResult).reason;
}

/** A new page, in a context of its own made with `contextOptions`, on the UI's app. */
export async function openUiPage(
  { ui, browser }: Pick<UiAndChromium, 'ui' | 'browser'>,
  contextOptions?: BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  await page.goto(ui.url);
  // The token page moves on to the app by a refresh of its own.
  await page.getByRole('navigation', { name: 'Pages' }).waitFor(APP_WAIT);
  return { context, page };
}

/** The UI and Chromium started, and a page open on the app; both stopped again when any step fails. */
export async function startUiInChromium(
  args: string[],
  options: { ui?: StartUiOptions; context?: BrowserContextOptions } = {},
): Promise<UiInChromium> {
  const started = await startUiAndChromium(args, options.ui);
  try {
    return { ...started, ...(await openUiPage(started, options.context)) };
  } catch (error) {
    await started.stop();
    throw error;
  }
}

/**
 * What `start` starts (the UI and Chromium, with a page or without), started before a file's tests and stopped after
 * them, whatever they did. Call it at the top level; the function it returns gives what was started inside a test.
 */
export function useAroundTests<Started extends { stop: () => Promise<void> }>(
  start: () => Promise<Started>,
): () => Started {
  let running: Started | undefined;
  beforeAll(async () => {
    running = await start();
  }, 90_000);
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (running === undefined) throw new Error('the UI starts in beforeAll: use it inside a test');
    return running;
  };
}

/**
 * The UI of a file's tests, on a config of `config` whose model is `script` (see `writeScriptedConfig`), with a page
 * open on it in Chromium, around the file's tests (see `useAroundTests`).
 */
export function useScriptedUiInChromium(
  prefix: string,
  script: unknown,
  config: Record<string, unknown>,
): () => UiInChromium {
  return useAroundTests(async () => startUiInChromium(['--config', await writeScriptedConfig(prefix, script, config)]));
}
