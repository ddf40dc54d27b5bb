/**
 * The bundled copy of a fixture server, which starts with a fraction of the CPU its sources take: `npm run
 * build:bundle` writes `test/X.mjs` of each SDK-based fixture to `dist/bundle/test/X.mjs`. Fixtures it does not
 * bundle (those without the SDK) run from their sources.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const testFolder = join(repoRoot, 'test');
const bundleFolder = join(repoRoot, 'dist', 'bundle', 'test');
/** Every SDK fixture's bundle includes this one, so a change to it makes them all stale. */
const sharedSdkServer = join(testFolder, 'fixtures', 'servers', 'shared', 'sdk-server.mjs');

/** The file to start for the fixture at `source` (absolute, under test/): its bundle where there is one. */
export function bundledFixture(source: string): string {
  const bundled = join(bundleFolder, relative(testFolder, source));
  if (!existsSync(bundled)) return source;
  const built = statSync(bundled).mtimeMs;
  for (const input of [source, sharedSdkServer]) {
    if (statSync(input).mtimeMs > built) {
      throw new Error(`${bundled} is older than ${input}: run \`npm run build:bundle\``);
    }
  }
  return bundled;
}
