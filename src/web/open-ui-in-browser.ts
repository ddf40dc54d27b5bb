/**
 * `mcp-host ui --open`: the browser is handed a file that leads to the UI's address, never the address itself. A
 * program's arguments are readable by every user of the machine (`ps`), a browser started with the address keeps
 * it among its own for as long as it runs, and the token in the address is all that guards the UI. The file is
 * readable by this user alone and removed when the UI closes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserCommand } from '../client-features/open-url.js';

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Runs the system's opener; `onFailed` hears of one that ran and then failed (xdg-open with no browser set up exits
 * non-zero), which a failure to start it does not cover.
 */
function spawnOpener(target: string, platform: NodeJS.Platform, onFailed: (why: string) => void): Promise<void> {
  const { command, args } = browserCommand(target, platform);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { shell: false, stdio: 'ignore', detached: true });
    child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.once('exit', (code, signal) => {
        if (code !== 0)
          onFailed(signal === null ? `${command} exited with code ${code}` : `${command} was killed by ${signal}`);
      });
      child.unref();
      resolve();
    });
  });
}

/**
 * Opens the UI at `url` (with its token) in the system browser; `remove` deletes the file it went through.
 * `onFailed` hears why when the opener ran but failed.
 */
export async function openUiInBrowser(
  url: string,
  onFailed: (why: string) => void,
  platform: NodeJS.Platform = process.platform,
): Promise<{ remove(): Promise<void> }> {
  // mkdtemp makes the folder for this user alone (0700).
  const folder = await mkdtemp(join(tmpdir(), 'mcp-host-ui-'));
  const remove = () => rm(folder, { recursive: true, force: true });
  try {
    const file = join(folder, 'open.html');
    const address = escapeAttribute(url);
    await writeFile(
      file,
      `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${address}"><title>mcp-host</title></head><body><a href="${address}">Open the mcp-host web UI</a></body></html>\n`,
      { mode: 0o600 },
    );
    await spawnOpener(pathToFileURL(file).href, platform, onFailed);
  } catch (error) {
    await remove();
    throw error;
  }
  return { remove };
}
