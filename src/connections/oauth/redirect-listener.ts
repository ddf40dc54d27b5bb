/**
 * The loopback redirect listener of a native OAuth client (RFC 8252 §7.3): a one-shot HTTP server on 127.0.0.1
 * that receives the browser's redirect back from the authorization server, checks the `state` it was given and
 * hands the callback parameters to the flow. Only 127.0.0.1 is bound, so nothing else on the network can reach it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BOUNDED_SERVER_OPTIONS,
  boundInboundConnections,
  type InboundConnectionBounds,
} from '../inbound-connection-bounds.js';

/** The path of the redirect URL. */
export const REDIRECT_PATH = '/callback';

export interface RedirectListener {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  /** Resolves with the callback's query parameters once a request with the expected `state` arrives. */
  callback: Promise<URLSearchParams>;
  /** Whether the listener keeps the process alive: only while someone waits for the user. */
  ref(): void;
  unref(): void;
  close(): Promise<void>;
}

interface RedirectListenerOptions {
  port: number;
  /** The `state` sent in the authorization request; callbacks carrying another value are answered 400 and ignored. */
  expectedState: string;
  /** How long to wait for the user. */
  timeoutMs: number;
  /** Names the server in the page the browser shows. */
  serverName: string;
}

/** One browser redirect is all it waits for: a few connections at most, each done in a moment. */
const REDIRECT_CONNECTION_BOUNDS: InboundConnectionBounds = {
  maxUnadmitted: 16,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
};

export class AuthorizationCallbackError extends Error {
  override readonly name = 'AuthorizationCallbackError';
}

export async function startRedirectListener(options: RedirectListenerOptions): Promise<RedirectListener> {
  let settle: { resolve: (params: URLSearchParams) => void; reject: (error: Error) => void } | undefined;
  const callback = new Promise<URLSearchParams>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may await `callback` if the flow is abandoned; the rejection is still observed through it when they do.
  callback.catch(() => undefined);

  const server = createServer(BOUNDED_SERVER_OPTIONS, (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== REDIRECT_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    if (url.searchParams.get('state') !== options.expectedState) {
      // Not the redirect of this flow (a stale tab, or a page trying to inject its own code): keep waiting.
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('This authorization response does not belong to the current request. Start again from mcp-host.'));
      return;
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      const description = url.searchParams.get('error_description');
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page(`Authorization of ${options.serverName} failed: ${error}. You can close this window.`));
      settle?.reject(
        new AuthorizationCallbackError(
          `the authorization server refused: ${error}${description ? ` (${description})` : ''}`,
        ),
      );
      return;
    }
    if (url.searchParams.get('code') === null) {
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(page('No authorization code.'));
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(page(`${options.serverName} is authorized. You can close this window and return to mcp-host.`));
    settle?.resolve(url.searchParams);
  });

  boundInboundConnections(server, REDIRECT_CONNECTION_BOUNDS, true);
  await listen(server, options.port);
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(() => {
    settle?.reject(
      new AuthorizationCallbackError(
        `authorization was not completed within ${Math.round(options.timeoutMs / 1000)} s; connect again to retry`,
      ),
    );
  }, options.timeoutMs);
  timer.unref();

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    settle?.reject(new AuthorizationCallbackError('authorization was abandoned because the connection closed'));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    redirectUrl: `http://127.0.0.1:${port}${REDIRECT_PATH}`,
    callback,
    ref: () => {
      server.ref();
      timer.ref();
    },
    unref: () => {
      server.unref();
      timer.unref();
    },
    close,
  };
}

/** A free port on 127.0.0.1 right now, for a redirect URL that must be known before the listener starts. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `the OAuth redirect port ${port} on 127.0.0.1 is in use; free it or choose another with the server's \`oauth.redirectPort\``,
            )
          : error,
      );
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

function page(message: string): string {
  const escaped = message.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>mcp-host</title><p>${escaped}</p>\n`;
}
