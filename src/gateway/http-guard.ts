/**
 * The gateway's HTTP checks, before any MCP handling: Host and Origin (DNS rebinding from a browser), the bearer
 * token (compared by SHA-256 in constant time), and a per-client request rate. Each check answers with the status
 * and one sentence saying what was wrong.
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type GatewaySettings, type GatewayToken, sha256Hex } from '../config/gateway-settings.js';

export interface Rejection {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0] ?? '';
}

export function checkHost(request: IncomingMessage, settings: GatewaySettings): Rejection | undefined {
  const header = request.headers.host;
  if (header === undefined) return { status: 400, message: 'the request has no Host header' };
  const hostname = hostnameOf(header).toLowerCase();
  if (LOOPBACK_NAMES.has(hostname) || settings.allowedHosts.some((allowed) => allowed.toLowerCase() === hostname)) {
    return undefined;
  }
  return { status: 403, message: `Host "${hostname}" is not allowed (add it to gateway.allowedHosts)` };
}

export function checkOrigin(request: IncomingMessage, settings: GatewaySettings): Rejection | undefined {
  const origin = request.headers.origin;
  // Non-browser clients send no Origin; a browser always does on a cross-origin request.
  if (origin === undefined) return undefined;
  if (settings.allowedOrigins.includes(origin)) return undefined;
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return { status: 403, message: `Origin "${origin}" is not a valid origin` };
  }
  if (LOOPBACK_NAMES.has(hostname)) return undefined;
  return { status: 403, message: `Origin "${origin}" is not allowed (add it to gateway.allowedOrigins)` };
}

/** The token's holder, or a rejection. */
export function authenticate(
  request: IncomingMessage,
  tokens: readonly GatewayToken[],
): { principal: string } | Rejection {
  const header = request.headers.authorization;
  const challenge = { 'www-authenticate': 'Bearer realm="mcp-host"' };
  if (header === undefined || !/^Bearer\s+\S+$/i.test(header)) {
    return { status: 401, message: 'this gateway needs "Authorization: Bearer TOKEN"', headers: challenge };
  }
  const presented = Buffer.from(sha256Hex(header.replace(/^Bearer\s+/i, '')), 'hex');
  for (const token of tokens) {
    if (timingSafeEqual(presented, Buffer.from(token.sha256, 'hex'))) return { principal: token.name };
  }
  return { status: 401, message: "the bearer token is not one of this gateway's tokens", headers: challenge };
}

/** Requests per client per rolling minute; past the limit, 429 with the seconds to wait. */
export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  check(client: string, now = Date.now()): Rejection | undefined {
    const since = now - 60_000;
    const times = (this.windows.get(client) ?? []).filter((time) => time > since);
    if (times.length >= this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((times[0] ?? now) - since) / 1000));
      this.windows.set(client, times);
      return {
        status: 429,
        message: `more than ${this.perMinute} requests a minute from this client (gateway.requestsPerMinute)`,
        headers: { 'retry-after': String(retryAfter) },
      };
    }
    times.push(now);
    this.windows.set(client, times);
    return undefined;
  }
}
