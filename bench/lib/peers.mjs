/**
 * What the run says about the peers and the versions it measured: read from the installed packages,
 * so the results name exactly what ran, and say plainly when a peer could not be measured and why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { node22PackageDirectory } from '../../tools/node22.mjs';
import { mcpUseVersion } from './mcp-use.mjs';
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
  return [
    {
      name: '@ai-sdk/mcp',
      version: installedVersion('@ai-sdk/mcp'),
      status:
        "measured in benchmarks 1–3 and 9 (`createMCPClient`, its own stdio transport `StdioMCPTransport`, tools from `tools()` called through `execute` and `toModelOutput`). The `ai` package (`generateText`) is not installed, so its fan-out issues one step's calls at once as `generateText` does, rather than through a model loop.",
    },
    {
      name: 'mcp-use',
      version: mcpUseVersion(),
      status:
        "measured in benchmarks 1–3, 5 and 9: mcp-use 1.x's `MCPClient` from `mcp-use/client` (2.x is a server framework), its servers from `fromDict` config, one session each from `createAllSessions`, every call through the session's connector `callTool` and then `JSON.stringify` of the result, as its agent's tools do. It has no in-memory transport, so it has stdio rows only. Its agent (`MCPAgent`) needs LangChain, which is not installed, so its fan-out issues one step's calls at once like the other peers.",
    },
  ];
}
