/**
 * Where the browser tests put their screenshots. A run leaves the checkout as it found it: the screenshots go to a
 * temporary folder, removed by `remove`, unless MCP_HOST_UPDATE_SCREENSHOTS=1 asks for the tracked ones in
 * docs/screenshots to be written (`npm run screenshots`). Either way the screenshots are taken.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './project.js';

const UPDATE_SCREENSHOTS_VARIABLE = 'MCP_HOST_UPDATE_SCREENSHOTS';

export interface ScreenshotFolder {
  /** The path of the screenshot `name` (without `.png`) in this folder. */
  file(name: string): string;
  /** Removes the folder if it is a temporary one; the tracked folder stays. */
  remove(): Promise<void>;
}

export async function screenshotFolder(): Promise<ScreenshotFolder> {
  if (process.env[UPDATE_SCREENSHOTS_VARIABLE] === '1') {
    const tracked = join(repoRoot, 'docs', 'screenshots');
    await mkdir(tracked, { recursive: true });
    return { file: (name) => join(tracked, `${name}.png`), remove: async () => {} };
  }
  const temporary = await mkdtemp(join(tmpdir(), 'mcp-host-screenshots-'));
  return {
    file: (name) => join(temporary, `${name}.png`),
    remove: () => rm(temporary, { recursive: true, force: true }),
  };
}
