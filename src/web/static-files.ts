/**
 * The built browser app, served from the package itself (nothing is fetched from the network at run time). Any
 * path that is not a file is the app's own route, answered with index.html.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';

/** `dist/web`, beside the compiled `dist/src`. */
export const DEFAULT_ASSET_FOLDER = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function staticFiles(folder: string) {
  const root = normalize(folder.endsWith(sep) ? folder : `${folder}${sep}`);
  return async (context: Context): Promise<Response> => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(context.req.url).pathname);
    } catch {
      return context.text('The address has a broken %-escape.', 400);
    }
    const candidate = normalize(join(root, path));
    const file = candidate.startsWith(root) && extname(candidate) !== '' ? candidate : join(root, 'index.html');
    try {
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      // Hashed asset names never change; the page itself is always asked for again.
      const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-store';
      return new Response(body, { headers: { 'content-type': type, 'cache-control': cache } });
    } catch {
      if (file.endsWith('index.html')) {
        return context.text('The web UI was not built: run `npm run build` in the mcp-host package.', 500);
      }
      return context.text('Not found.', 404);
    }
  };
}
