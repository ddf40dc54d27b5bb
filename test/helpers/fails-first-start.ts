/**
 * A local server that fails its first start (it exits with code 9 before answering initialize) and is the counter
 * fixture from its next start on: a server left failed that a restart brings back. Given `gate`, a later start waits
 * for that file before it answers, so the test chooses when the server comes back.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureServer } from './project.js';

/** Writes the server's script into `directory` (its marker of the first start beside it) and returns its path. */
export async function writeFailsFirstStartServer(directory: string, options: { gate?: string } = {}): Promise<string> {
  const script = join(directory, 'flaky.mjs');
  const marker = JSON.stringify(join(directory, 'started-once'));
  const gate = options.gate === undefined ? undefined : JSON.stringify(options.gate);
  await writeFile(
    script,
    [
      "import { existsSync, writeFileSync } from 'node:fs';",
      `if (!existsSync(${marker})) { writeFileSync(${marker}, ''); process.exit(9); }`,
      ...(gate === undefined
        ? []
        : [`while (!existsSync(${gate})) await new Promise((resolve) => setTimeout(resolve, 20));`]),
      `await import(${JSON.stringify(pathToFileURL(fixtureServer('counter.mjs')).href)});`,
    ].join('\n'),
  );
  return script;
}
