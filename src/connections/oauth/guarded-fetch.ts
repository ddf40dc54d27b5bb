/**
 * The `fetch` a remote server's transport and its OAuth flow use: every URL, and every redirect hop, passes the
 * address guard first, and headers from the server's config (API keys, static `Authorization`) go only to the
 * server's own origin, never to an authorization server it names.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import type { UrlGuard } from './address-guard.js';

/** Redirect hops followed for one request before giving up. */
const MAX_REDIRECTS = 5;

export interface GuardedFetchOptions {
  serverUrl: string;
  guard: UrlGuard;
  /** The headers configured for the server; stripped from requests to any other origin. */
  configuredHeaders?: Record<string, string>;
  /** Default: the global fetch. */
  fetch?: FetchLike;
}

export function createGuardedFetch(options: GuardedFetchOptions): FetchLike {
  const serverOrigin = new URL(options.serverUrl).origin;
  const baseFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const configured = Object.entries(options.configuredHeaders ?? {});

  const withoutConfiguredHeaders = (url: URL, init: RequestInit | undefined): RequestInit | undefined => {
    if (url.origin === serverOrigin || configured.length === 0 || init?.headers === undefined) return init;
    const headers = new Headers(init.headers);
    for (const [name, value] of configured) {
      if (headers.get(name) === value) headers.delete(name);
    }
    return { ...init, headers };
  };

  return async (input, init) => {
    let url = new URL(String(input));
    await options.guard.check(url);
    const mode = init?.redirect ?? 'follow';
    if (mode !== 'follow') return baseFetch(url, withoutConfiguredHeaders(url, init));
    // Follow redirects here rather than in fetch, so each hop is checked before it is requested.
    const method = (init?.method ?? 'GET').toUpperCase();
    for (let hop = 0; ; hop++) {
      const response = await baseFetch(url, { ...withoutConfiguredHeaders(url, init), redirect: 'manual' });
      const location = response.headers.get('location');
      const isRedirect = response.status >= 300 && response.status < 400 && location !== null;
      const keepsMethod = method === 'GET' || method === 'HEAD' || response.status === 307 || response.status === 308;
      if (!isRedirect || !keepsMethod) return response;
      if (hop === MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects from ${String(input)}`);
      await response.body?.cancel().catch(() => undefined);
      url = new URL(location, url);
      await options.guard.check(url);
    }
  };
}
