/**
 * The sandbox origin: a second loopback port that serves MCP Apps views and nothing else. The UI page frames its
 * proxy page; the proxy frames the view, served with the Content-Security-Policy built from the view's declared
 * domains. Being another origin than the UI, nothing here can read the UI's pages, API or storage, where the UI's
 * token is kept. Only the `Host` this port listens on is answered (DNS rebinding), and only known view ids.
 */

import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import type { AppViews } from './app-views.js';
import { acceptedHosts } from './loopback.js';
import { SANDBOX_PROXY_SCRIPT } from './sandbox-proxy-script.js';
import { createUiServer } from './ui-server.js';

export interface SandboxServer {
  readonly origin: string;
  close(): Promise<void>;
}

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-site',
};

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export async function startSandboxServer(options: {
  hostname: string;
  views: AppViews;
  /** `host:port` forms of the UI's own address: the only pages that may frame the proxy. */
  uiHosts: () => ReadonlySet<string>;
}): Promise<SandboxServer> {
  let hosts = new Set<string>();
  const app = new Hono();
  app.use('*', async (context, next) => {
    const host = (context.req.header('host') ?? '').toLowerCase();
    if (!hosts.has(host)) return context.text(`Host "${host.slice(0, 100)}" is not this sandbox's address.`, 403);
    await next();
  });
  app.get(
    '/proxy.js',
    () =>
      new Response(SANDBOX_PROXY_SCRIPT, {
        headers: { ...COMMON_HEADERS, 'content-type': 'text/javascript; charset=utf-8' },
      }),
  );
  app.get('/proxy/:id', (context) => {
    const view = options.views.get(context.req.param('id'));
    if (view === undefined) return context.text('No such view (it was closed).', 404);
    const parent = context.req.query('parent') ?? '';
    if (!options.uiHosts().has(parent.toLowerCase().replace(/^http:\/\//, ''))) {
      return context.text('The proxy is framed by the UI only.', 403);
    }
    const viewUrl = `/view/${encodeURIComponent(view.info.viewId)}?parent=${encodeURIComponent(parent)}`;
    const html = `<!doctype html><html data-view="${escapeAttribute(viewUrl)}" data-parent="${escapeAttribute(parent)}"><head><meta charset="utf-8"><title>MCP App sandbox</title><script src="/proxy.js" defer></script></head><body></body></html>`;
    return new Response(html, {
      headers: {
        ...COMMON_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${parent}`,
      },
    });
  });
  app.get('/view/:id', (context) => {
    const parent = context.req.query('parent') ?? '';
    if (!options.uiHosts().has(parent.toLowerCase().replace(/^http:\/\//, ''))) {
      return context.text('The view is framed by the UI only.', 403);
    }
    const view = options.views.takeDocument(context.req.param('id'));
    if (view === undefined) return context.text('No such view (it was closed).', 404);
    if (view === 'taken') return context.text('This view was loaded already: a view gets one document.', 410);
    return new Response(view.html, {
      headers: {
        ...COMMON_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `${view.policy}; frame-ancestors ${origin} ${parent}`,
      },
    });
  });
  app.all('*', (context) => context.text('Not found.', 404));

  const server = createUiServer(app.fetch);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = acceptedHosts(options.hostname, port);
  const shownHost = options.hostname.includes(':') ? `[${options.hostname}]` : options.hostname;
  const origin = `http://${shownHost}:${port}`;
  return {
    origin,
    close: async () => {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
