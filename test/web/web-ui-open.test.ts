/**
 * `mcp-host ui --open` hands the system browser a file that leads to the UI, never the address with its token: a
 * program's arguments are readable by every user of the machine. The file is this user's alone, leads a real
 * Chromium into the UI (the page keeps the token), and is gone once the UI closes. The system's opener is a stand-in on
 * PATH that writes down what it was given.
 */
import { existsSync, watch } from 'node:fs';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exampleServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { startUiAndChromium } from '../helpers/web-ui-in-chromium.js';

/** Resolves with the file's text once it has some. */
async function written(file: string): Promise<string> {
  const folder = join(file, '..');
  for (;;) {
    const changed = new Promise<void>((resolve) => {
      const watcher = watch(folder, () => {
        watcher.close();
        resolve();
      });
    });
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text;
    await changed;
  }
}

describe.runIf(process.platform === 'linux')('mcp-host ui --open', () => {
  it("opens a file of this user's that leads into the UI, and never puts the token in the opener's arguments", async () => {
    const folder = await temporaryDirectory();
    const opened = join(folder, 'opened.txt');
    // xdg-open's stand-in: its arguments, one a line.
    await writeFile(
      join(folder, 'xdg-open'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > "${opened}.part"\nmv "${opened}.part" "${opened}"\n`,
    );
    await chmod(join(folder, 'xdg-open'), 0o755);
    const config = await writeConfig({
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' } },
    });
    const { ui, browser, stop } = await startUiAndChromium(['--config', config, '--open'], {
      env: { PATH: `${folder}:${process.env.PATH ?? ''}` },
    });
    let file: string | undefined;
    try {
      const args = (await written(opened)).trimEnd().split('\n');
      expect(args).toHaveLength(1);
      expect(args[0]).toMatch(/^file:\/\//);
      expect(args[0]).not.toContain(ui.token);
      file = fileURLToPath(args[0]!);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(join(file, '..'))).mode & 0o777).toBe(0o700);
      expect(await readFile(file, 'utf8')).toContain(`content="0;url=${ui.url}"`);

      const page = await (await browser.newContext()).newPage();
      await page.goto(args[0]!);
      await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor({ timeout: 15_000 });
      await page.getByRole('heading', { name: 'calculator' }).waitFor({ timeout: 15_000 });
      expect(page.url()).toBe(`${ui.base}/`);
    } finally {
      await stop();
    }
    expect(existsSync(file!)).toBe(false);
  }, 60_000);
});
