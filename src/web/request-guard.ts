/**
 * Every request to the UI passes these checks before anything else runs:
 * - `Host` must name the loopback address the UI listens on (a DNS-rebinding page sends its own name);
 * - `Origin`, when a browser sends one, must be the UI's own origin, and a request that changes anything must carry
 *   it (a cross-site form or fetch cannot forge it);
 * - a request to the API must carry this start's random token (`Authorization: Bearer`, or `?token=` for the event
 *   stream, which EventSource opens without headers). The token arrives once, in the printed URL; the page keeps it
 *   in its origin's storage, which no other port can read. It is never a cookie: a browser sends a cookie for
 *   127.0.0.1 or localhost to every port of that name, so any server there would be handed it, and a second UI would
 *   overwrite the first one's.
 * The app's own files (the built page, scripts and styles, the same in every install) are served to any request
 * that passes the first two. Each refusal says in one sentence what was wrong.
 */

import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

interface GuardOptions {
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

/** The one route that may take the token in its address: EventSource sends no headers of the page's choosing. */
const EVENT_STREAM_PATH = '/api/events';

/**
 * The token a request to the API presents: its bearer token, or for the event stream the `token` parameter. Any other
 * route refuses it in the address, so no address but the stream's, which the page alone opens, ever carries it.
 */
function presentedToken(context: Context): string | undefined {
  const bearer = /^Bearer (\S+)$/i.exec(context.req.header('authorization') ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  return context.req.path === EVENT_STREAM_PATH ? context.req.query('token') : undefined;
}

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
    await next();
  };
}

/**
 * The API's own check, mounted on its routes (so it sees the path as the router does, `%`-escapes decoded): the
 * request must present this start's token.
 */
export function apiTokenGuard(options: { token: string }): MiddlewareHandler {
  return async (context, next) => {
    if (!sameToken(presentedToken(context), options.token)) {
      return refuse(
        context,
        401,
        'This UI needs the token from the address mcp-host ui printed; open that address (the page keeps it).',
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
