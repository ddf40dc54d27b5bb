/**
 * What the run says about the peers and the versions it measured: read from the installed packages,
 * so the results name exactly what ran, and say plainly when a peer could not be measured and why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { node22PackageDirectory } from '../../tools/node22.mjs';
import { projectDirectory } from './paths.mjs';

/** A package's installed version: the project's own, or a peer's from the Node 22 tools package. */
export function installedVersion(name) {
  for (const root of [projectDirectory, node22PackageDirectory]) {
    const file = join(root, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
  }
  return 'not installed';
}

/** Imports a peer installed in the Node 22 tools package (the peers need Node ≥ 22, so the project does not install them). */
export function importPeer(specifier) {
  const resolve = createRequire(join(node22PackageDirectory, 'package.json')).resolve;
  return import(pathToFileURL(resolve(specifier)).href);
}

export function projectVersion() {
  return JSON.parse(readFileSync(join(projectDirectory, 'package.json'), 'utf8')).version;
}

export function describePeers() {
  const mcpUseClient = installedVersion('@mcp-use/client');
  return [
    {
      name: '@ai-sdk/mcp',
      version: installedVersion('@ai-sdk/mcp'),
      status:
        "measured in benchmarks 1–3 (`createMCPClient`, its own stdio transport `StdioMCPTransport`, tools from `tools()` called through `execute` and `toModelOutput`). The `ai` package (`generateText`) is not installed, so its fan-out issues one step's calls at once as `generateText` does, rather than through a model loop.",
    },
    {
      name: 'mcp-use',
      version: installedVersion('mcp-use'),
      status:
        mcpUseClient === 'not installed'
          ? 'not measured. mcp-use 2.x is a server framework; its client side (the former `MCPClient`/`MCPAgent`) lives in the separate package `@mcp-use/client`, which mcp-use loads only for `server.proxy()` (Streamable HTTP upstreams only) and which is not installed — the npm registry answers 404 for it — so there is no mcp-use host to run these tasks through.'
          : `@mcp-use/client ${mcpUseClient} is installed but the benchmarks have no adapter for it yet; not measured.`,
    },
  ];
}
