/**
 * Builds the web UI into dist/web, which the package ships and `mcp-host ui` serves. No plugin is needed: Vite's
 * own transformer compiles TSX with React's automatic runtime. Everything is bundled; nothing loads from the network.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // One script and one stylesheet: no inline code, so the Content-Security-Policy can forbid it.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    // One bundle on purpose (see above); the MCP Apps bridge makes it larger than Vite's default warning size.
    chunkSizeWarningLimit: 1_024,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
});
