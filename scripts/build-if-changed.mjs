/**
 * Runs the build of the web UI (`web`) or of the bundles (`bundle`) unless its output is up to date with every file
 * it is built from (see build-freshness.mjs): `npm ci` builds (`prepare`) and `npm test` builds again. The lists are
 * wide on purpose (all of src/ for the web UI, which imports some of it): building for nothing costs seconds,
 * skipping a build that was needed costs a wrong package. `--force` builds whatever the stamp says.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBuild, recordBuild } from './build-freshness.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** What decides every build: the dependencies' versions, the package's own fields and these scripts. */
const common = ['package.json', 'package-lock.json', 'scripts/build-if-changed.mjs', 'scripts/build-freshness.mjs'];

const targets = {
  web: {
    inputs: [...common, 'web', 'src'],
    output: 'dist/web',
    commands: [
      ['tsc', '-p', 'web/tsconfig.json'],
      ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    ],
  },
  bundle: {
    // The CLI and example servers are bundled from tsc's output; fixtures import tsc's output too.
    inputs: [
      ...common,
      'scripts/bundle.mjs',
      'dist/src',
      'dist/examples',
      'test/fixtures',
      'test/client-features/fixtures',
    ],
    output: 'dist/bundle',
    commands: [[process.execPath, 'scripts/bundle.mjs']],
  },
};

const name = process.argv[2];
const spec = targets[name];
if (spec === undefined) {
  process.stderr.write(`usage: node scripts/build-if-changed.mjs ${Object.keys(targets).join('|')} [--force]\n`);
  process.exit(2);
}
const target = { ...spec, root, stamp: `${spec.output}.build-stamp.json` };
const { reason, inputs } = checkBuild(target);
if (reason === undefined && !process.argv.includes('--force')) {
  process.stdout.write(`${target.output} is up to date with its inputs: not built again\n`);
  process.exit(0);
}
process.stdout.write(`building ${target.output}: ${reason ?? 'asked to (--force)'}\n`);
// A build that fails half-way leaves no stamp behind to vouch for what it wrote.
rmSync(join(root, target.stamp), { force: true });
for (const [command, ...args] of target.commands) {
  // npm puts node_modules/.bin on PATH for its scripts; on Windows those commands are .cmd files needing a shell.
  const shell = process.platform === 'win32' && command !== process.execPath;
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell });
  if (run.error !== undefined) throw run.error;
  if (run.status !== 0) process.exit(run.status ?? 1);
}
recordBuild(target, inputs);
