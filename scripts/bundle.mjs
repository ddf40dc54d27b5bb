/**
 * Bundles the CLI, the example servers and the SDK-based test fixture servers into a few ESM files each, under
 * dist/bundle/. Node resolves and loads hundreds of small module files on every start otherwise, which costs most
 * of a short command's CPU time. Dependencies are bundled in; lazily imported parts (provider SDKs, commands,
 * the gateway) stay in chunks of their own, loaded only when used.
 *
 * The CLI and the example servers are bundled from tsc's output (run tsc first), the fixtures from their sources.
 * The library (dist/src/index.js) is not bundled: its users import tsc's output.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist', 'bundle');

/** `path` relative to the project root, with forward slashes. */
function fromRoot(path) {
  return relative(root, path).split(sep).join('/');
}

/** Every `.mjs` file under `folder` that is a server built on the MCP SDK (directly or through the shared one). */
function sdkFixtureServers(folder) {
  // A package installed without its tests has no fixtures to bundle.
  if (!existsSync(folder)) return [];
  const usesSdk = /from '(@modelcontextprotocol\/|\.\/shared\/sdk-server\.mjs')/;
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.mjs')) continue;
    const path = join(entry.parentPath, entry.name);
    if (!path.includes(`${sep}shared${sep}`) && usesSdk.test(readFileSync(path, 'utf8'))) found.push(path);
  }
  return found;
}

/**
 * A module that finds files next to itself (`new URL('../web/', import.meta.url)`, `createRequire`) must see the
 * URL of the file it was bundled from, not of the chunk it ended up in: each `import.meta.url` outside
 * node_modules becomes that file's URL, written relative to the chunk so the bundle can be moved with the package.
 */
function originalModuleUrls() {
  const marker = '__MCP_HOST_ORIGINAL_URL__';
  return {
    name: 'original-module-urls',
    transform: {
      filter: { id: { exclude: /node_modules/ }, code: { include: 'import.meta.url' } },
      handler(code, id) {
        // Only the project's own files; the bundler's virtual modules have no place on disk.
        if (!id.startsWith(root + sep)) return null;
        return { code: code.replaceAll('import.meta.url', `${marker}(${JSON.stringify(fromRoot(id))})`), map: null };
      },
    },
    renderChunk(code, chunk, options) {
      if (!code.includes(marker)) return null;
      const chunkFolder = dirname(join(options.dir, chunk.fileName));
      // The bundler may have changed the quotes; the path itself has none.
      const pattern = new RegExp(`${marker}\\((['"])([^'"]+)\\1\\)`, 'g');
      return code.replace(pattern, (_match, _quote, original) => {
        let path = relative(chunkFolder, join(root, original)).split(sep).join('/');
        if (!path.startsWith('.')) path = `./${path}`;
        return `new URL(${JSON.stringify(path)}, import.meta.url).href`;
      });
    },
  };
}

async function bundle(name, input, extension = 'js') {
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  await build({
    input,
    platform: 'node',
    // jsonc-parser's `main` is a UMD build whose dynamic requires a bundler cannot follow.
    resolve: { mainFields: ['module', 'main'] },
    // A native addon finds its compiled binary next to its own files.
    external: ['better-sqlite3'],
    plugins: [originalModuleUrls()],
    logLevel: 'warn',
    output: {
      dir,
      format: 'esm',
      entryFileNames: `[name].${extension}`,
      chunkFileNames: `chunks/[name]-[hash].${extension}`,
    },
  });
}

await bundle('cli', { main: join(root, 'dist', 'src', 'cli', 'main.js') });
// The bundler writes new files without the execute bit. npm sets it when it links a bin, which `npx mcp-host` does
// once per checkout: after a rebuild (`npm test` rebuilds) the command would then fail with "Permission denied".
for (const target of Object.values(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin ?? {})) {
  chmodSync(join(root, target), 0o755);
}
const examples = join(root, 'dist', 'examples', 'servers');
await bundle(
  'examples',
  Object.fromEntries(
    readdirSync(examples)
      .filter((name) => name.endsWith('.js'))
      .map((name) => [`servers/${name.slice(0, -3)}`, join(examples, name)]),
  ),
);
const fixtures = [join(root, 'test', 'fixtures'), join(root, 'test', 'client-features', 'fixtures')];
await bundle(
  'test',
  Object.fromEntries(
    fixtures.flatMap(sdkFixtureServers).map((path) => [fromRoot(path).slice('test/'.length, -'.mjs'.length), path]),
  ),
  'mjs',
);
