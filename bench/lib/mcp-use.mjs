/**
 * The mcp-use peer: its 1.x client (`mcp-use/client`; 2.x is a server framework). With its dependencies it is over
 * 500 MB, so it lives in the nested package tools/mcp-use, installed from its lock file the first time a benchmark
 * needs it, not by the project's `npm ci`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectDirectory } from './paths.mjs';

export const mcpUsePackageDirectory = join(projectDirectory, 'tools', 'mcp-use');
const installedManifest = join(mcpUsePackageDirectory, 'node_modules', 'mcp-use', 'package.json');

/** Installs tools/mcp-use from its lock file when it is missing. */
export function ensureMcpUse(log = (line) => process.stderr.write(`${line}\n`)) {
  if (existsSync(installedManifest)) return;
  log('Installing the mcp-use peer once (tools/mcp-use) …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(
    npm,
    ['ci', '--prefix', mcpUsePackageDirectory, '--no-audit', '--no-fund', '--loglevel=error'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (install.status !== 0 || !existsSync(installedManifest)) {
    throw new Error(
      'Could not install the mcp-use peer: run `npm ci --prefix tools/mcp-use` yourself and read its output.',
    );
  }
}

export function mcpUseVersion() {
  return existsSync(installedManifest) ? JSON.parse(readFileSync(installedManifest, 'utf8')).version : 'not installed';
}

/** Imports a module of the installed mcp-use peer (`mcp-use/client`, …): its ES module build, as an application would. */
export function importMcpUse(specifier) {
  // No anonymous usage reports: a benchmark sends nothing anywhere, and its timings must not include trying to.
  process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false';
  const packageDirectory = join(mcpUsePackageDirectory, 'node_modules', 'mcp-use');
  const subpath = `.${specifier.slice('mcp-use'.length)}` || '.';
  const entry = JSON.parse(readFileSync(installedManifest, 'utf8')).exports?.[subpath]?.import;
  if (typeof entry !== 'string') throw new Error(`mcp-use ${mcpUseVersion()} has no ES module entry for ${specifier}`);
  return import(pathToFileURL(join(packageDirectory, entry)).href);
}
