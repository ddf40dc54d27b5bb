/** The version in mcp-host's package.json, found the same way from the compiled files, the bundle and the sources. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  let folder = dirname(fileURLToPath(import.meta.url));
  // The nearest package.json above this file is mcp-host's own (src/cli/ or dist/src/cli/ inside the package).
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('mcp-host cannot find its package.json');
    folder = parent;
  }
  cached = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
