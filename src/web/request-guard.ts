/**
 * Every request to the UI passes three checks before anything else runs:
 * - `Host` must name the loopback address the UI listens on (a DNS-rebinding page sends its own name);
 * - `Origin`, when a browser sends one, must be the UI's own origin, and a request that changes anything must carry
 *   it (a cross-site form or fetch cannot forge it);
 * - the session cookie must hold this start's random token. The token arrives once, in the printed URL, and is
 *   exchanged for an HttpOnly, SameSite=Strict cookie so it never sits in the page's address or its scripts.
 * Each refusal says in one sentence what was wrong.
 */

import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';

const SESSION_COOKIE = 'mcp_host_ui';

interface GuardOptions {
  token: string;
  /** `host:port` values accepted in `Host` (known once the server listens). */
  hosts: () => ReadonlySet<string>;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(context: Context, status: 400 | 401 | 403, message: string): Response {
  return context.json({ error: message }, status);
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function requestGuard(options: GuardOptions): MiddlewareHandler {
  return async (context, next) => {
    const hosts = options.hosts();
    const host = context.req.header('host');
    if (host === undefined) return refuse(context, 400, 'The request has no Host header.');
    if (!hosts.has(host.toLowerCase())) {
      return refuse(context, 403, `Host "${host}" is not this UI's address; only ${[...hosts].join(' or ')}.`);
    }
    const origin = context.req.header('origin');
    if (origin !== undefined && !hosts.has(origin.toLowerCase().replace(/^http:\/\//, ''))) {
      return refuse(context, 403, `Origin "${origin}" is not this UI's own origin.`);
    }
    if (!SAFE_METHODS.has(context.req.method) && origin === undefined) {
      return refuse(context, 403, 'A request that changes something must carry the Origin header.');
    }
    // The token from the printed URL: exchanged for the cookie, then the address bar is cleaned. The page moves on by
    // a refresh of its own, not a redirect: a redirect stays part of a navigation another site started (the file the
    // browser was opened with), and the SameSite=Strict cookie is not sent on that.
    const url = new URL(context.req.url);
    const offered = url.searchParams.get('token');
    if (offered !== null && context.req.method === 'GET') {
      if (!sameToken(offered, options.token))
        return refuse(context, 401, 'The token in the address is not this run’s.');
      url.searchParams.delete('token');
      const next = `${url.pathname}${url.search}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      const headers = new Headers({
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': `${SESSION_COOKIE}=${options.token}; Path=/; HttpOnly; SameSite=Strict`,
        'cache-control': 'no-store',
      });
      const page = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${next}"><title>mcp-host</title></head><body></body></html>`;
      return new Response(page, { status: 200, headers });
    }
    if (!sameToken(getCookie(context, SESSION_COOKIE), options.token)) {
      return refuse(
        context,
        401,
        'This UI needs the token from the address mcp-host ui printed; open that address (it sets a cookie).',
      );
    }
    await next();
  };
}

/**
 * Headers on every answer: a strict Content-Security-Policy (only the UI's own scripts and styles, no inline code;
 * frames only from the sandbox origin that serves MCP Apps views).
 */
export function securityHeaders(frameOrigin: () => string | undefined = () => undefined): MiddlewareHandler {
  return async (context, next) => {
    await next();
    const frames = frameOrigin();
    const headers = context.res.headers;
    headers.set(
      'content-security-policy',
      [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "media-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        `frame-src ${frames ?? "'none'"}`,
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
    headers.set('x-content-type-options', 'nosniff');
    headers.set('referrer-policy', 'no-referrer');
    headers.set('x-frame-options', 'DENY');
    headers.set('cross-origin-opener-policy', 'same-origin');
    headers.set('cross-origin-resource-policy', 'same-origin');
  };
}
