/**
 * The real Chromium the browser tests drive (Debian's `chromium`, which .ci/run installs; `CHROMIUM_PATH` names
 * another), headless. A missing browser fails the test with what to do, never skips it.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (.ci/run installs it)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}
