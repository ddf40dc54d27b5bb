/**
 * One remote server's OAuth, across its connection attempts: the provider the SDK's transports drive, the guarded
 * `fetch` they use, and the interactive part the SDK leaves to its host — listening for the redirect, opening or
 * showing the authorization URL, exchanging the returned code, and letting whoever hit the 401 or 403 wait for it.
 *
 * The SDK's transports answer a 401 (or a 403 `insufficient_scope`) by running `auth()`; when that needs the user
 * it calls `redirectToAuthorization` and the request fails with `UnauthorizedError`. This session starts the flow at
 * that moment; the connect path and the transport wrapper then wait for it and try once more.
 */
import {
  auth,
  type FetchLike,
  type OAuthClientProvider,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { assertOpenableAuthorizationUrl } from './authorization-url.js';
import { wrapAuthorizingTransport } from './authorizing-transport.js';
import type { HostClientCredentialsProvider } from './client-credentials-provider.js';
import type { HostOAuthProvider } from './host-oauth-provider.js';
import { legacyDiscoveryState } from './legacy-discovery.js';
import { type RedirectListener, startRedirectListener } from './redirect-listener.js';

/** What the user is told when a server needs them to authorize it. */
export interface AuthorizationRequest {
  server: string;
  /** The authorization URL, to open or to copy into a browser. */
  url: string;
  /** True when the URL was handed to a browser; false when the user has to open it themselves. */
  opened: boolean;
  /** Why opening failed, when it was attempted. */
  openError?: string;
}

interface AuthorizationSessionOptions {
  serverName: string;
  serverUrl: string;
  redirectPort: number;
  authorizationTimeoutMs: number;
  fetch: FetchLike;
  openUrl?: (url: string) => Promise<void>;
  onAuthorizationRequired?: (request: AuthorizationRequest) => void;
}

interface Flow {
  listener: RedirectListener;
  /** The scope the flow asks for, space-separated. */
  scope: string;
  /** Settles when the code was exchanged for tokens (or the flow failed). */
  done: Promise<void>;
  settled: boolean;
  superseded: boolean;
}

export class AuthorizationSession {
  private latest: Flow | undefined;
  private started = 0;
  private starting: Promise<void> = Promise.resolve();
  private providerInstance: HostOAuthProvider | HostClientCredentialsProvider | undefined;

  constructor(private readonly options: AuthorizationSessionOptions) {}

  /**
   * Set once, right after construction; the provider and the session need each other. A client-credentials
   * provider never starts an interactive flow, so the session only hands it to the transports.
   */
  attach(provider: HostOAuthProvider | HostClientCredentialsProvider): void {
    this.providerInstance = provider;
  }

  get provider(): OAuthClientProvider {
    return this.requireProvider();
  }

  get fetch(): FetchLike {
    return this.options.fetch;
  }

  /**
   * How many interactive authorizations have been started. A caller notes it before a request; if the request
   * fails with `UnauthorizedError` and the count moved, that request started a flow worth waiting for.
   */
  get generation(): number {
    return this.started;
  }

  /** What a Streamable HTTP or SSE client transport needs for this server. */
  transportOptions(): { authProvider: OAuthClientProvider; fetch: FetchLike } {
    return { authProvider: this.requireProvider(), fetch: this.options.fetch };
  }

  /** The transport, made to send a request once more after an authorization it triggered has completed. */
  wrapTransport<T extends Transport>(transport: T): T {
    return wrapAuthorizingTransport(transport, this);
  }

  /**
   * After an attempt failed: when the failure was the server asking for authorization and a flow was started
   * since `generationBefore`, waits for the user to finish it and resolves true (try again). Otherwise false.
   * Rejects when the authorization itself fails (refused, timed out, bad code).
   */
  async recover(error: unknown, generationBefore: number): Promise<boolean> {
    if (!isUnauthorized(error) || this.started === generationBefore) return false;
    await this.waitForAuthorization();
    return true;
  }

  /**
   * After an attempt failed on the SDK's metadata issuer check: when the server is laid out the 2025-03-26 way
   * (see legacy-discovery.ts), records the metadata it publishes as this server's discovery and resolves true (try
   * again). Otherwise false. Rejects when the provider refuses that metadata (no PKCE S256).
   */
  async adoptLegacyDiscovery(error: unknown): Promise<boolean> {
    const state = await legacyDiscoveryState(error, this.options.serverUrl, this.options.fetch);
    if (state === undefined) return false;
    await this.requireProvider().saveDiscoveryState(state);
    return true;
  }

  /** Waits for the latest flow (following any flow that replaces it) to finish; rejects when it fails. */
  async waitForAuthorization(): Promise<void> {
    for (;;) {
      const flow = this.latest;
      if (flow === undefined) return;
      // Keep the process alive while someone waits for the browser; otherwise the listener must not hold it.
      flow.listener.ref();
      try {
        await flow.done;
        return;
      } catch (error) {
        if (!flow.superseded || this.latest === flow) throw error;
      } finally {
        flow.listener.unref();
      }
    }
  }

  /** Called by the provider when the SDK wants the user sent to `url`. */
  async startAuthorization(url: URL, codeVerifier: string): Promise<void> {
    assertOpenableAuthorizationUrl(url);
    const state = url.searchParams.get('state');
    if (state === null) {
      throw new Error(`the authorization request for server "${this.options.serverName}" has no state`);
    }
    this.started++;
    // One flow at a time, started in order: overlapping requests (parallel 401s) must not race for the port.
    const run = this.starting.then(() => this.startFlow(url, state, codeVerifier));
    this.starting = run.catch(() => undefined);
    await run;
  }

  private async startFlow(url: URL, state: string, codeVerifier: string): Promise<void> {
    const scope = url.searchParams.get('scope') ?? '';
    const previous = this.latest;
    // A second request while the user is still at the first one joins it, unless it needs more scope.
    if (previous && !previous.settled && !previous.superseded && coversScope(previous.scope, scope)) return;
    if (previous) {
      previous.superseded = true;
      await previous.listener.close();
    }
    const listener = await startRedirectListener({
      port: this.options.redirectPort,
      expectedState: state,
      timeoutMs: this.options.authorizationTimeoutMs,
      serverName: this.options.serverName,
    });
    listener.unref();
    const flow: Flow = { listener, scope, superseded: false, settled: false, done: Promise.resolve() };
    flow.done = this.completeFlow(flow, codeVerifier);
    flow.done.then(
      () => {
        flow.settled = true;
      },
      () => {
        flow.settled = true;
      },
    );
    this.latest = flow;
    await this.show(url);
  }

  /** Stops waiting for any authorization in progress. */
  async close(): Promise<void> {
    const flow = this.latest;
    if (flow) {
      flow.superseded = true;
      await flow.listener.close();
    }
  }

  private async completeFlow(flow: Flow, codeVerifier: string): Promise<void> {
    try {
      const params = await flow.listener.callback;
      const provider = this.requireProvider();
      if (!('useVerifierForExchange' in provider)) throw new Error('no interactive authorization for this client');
      provider.useVerifierForExchange(codeVerifier);
      try {
        const result = await auth(provider, {
          serverUrl: this.options.serverUrl,
          authorizationCode: params.get('code') ?? '',
          iss: params.get('iss') ?? undefined,
          fetchFn: this.options.fetch,
        });
        if (result !== 'AUTHORIZED') throw new Error(`the token exchange ended with ${result}`);
      } finally {
        provider.useVerifierForExchange(undefined);
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`authorization of server "${this.options.serverName}" failed: ${why}`, { cause: error });
    } finally {
      await flow.listener.close();
    }
  }

  private async show(url: URL): Promise<void> {
    const request: AuthorizationRequest = { server: this.options.serverName, url: url.href, opened: false };
    if (this.options.openUrl) {
      try {
        await this.options.openUrl(url.href);
        request.opened = true;
      } catch (error) {
        request.openError = error instanceof Error ? error.message : String(error);
      }
    }
    this.options.onAuthorizationRequired?.(request);
  }

  private requireProvider(): HostOAuthProvider | HostClientCredentialsProvider {
    if (!this.providerInstance) throw new Error('AuthorizationSession used before attach()');
    return this.providerInstance;
  }
}

function coversScope(granted: string, wanted: string): boolean {
  const have = new Set(granted.split(' ').filter(Boolean));
  return wanted
    .split(' ')
    .filter(Boolean)
    .every((scope) => have.has(scope));
}

/** Whether `error`, or an error it wraps, is the SDK's signal that the server wants authorization. */
export function isUnauthorized(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (UnauthorizedError.isInstance(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
