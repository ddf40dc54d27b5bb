/**
 * The entry point of the host's OAuth for remote servers: made once per host with where tokens live and how to
 * reach the user, it hands each remote server's connection an `AuthorizationSession` (or nothing, for a server
 * whose config says `"oauth": false`).
 */
import type { RemoteServerConfig } from '../../config/types.js';
import { createUrlGuard, type HostLookup } from './address-guard.js';
import { type AuthorizationRequest, AuthorizationSession } from './authorization-session.js';
import { HostClientCredentialsProvider } from './client-credentials-provider.js';
import { HostCrossAppAccessProvider } from './cross-app-access-provider.js';
import { createGuardedFetch } from './guarded-fetch.js';
import { HostOAuthProvider } from './host-oauth-provider.js';
import { OAuthStore } from './oauth-store.js';
import { findFreePort, REDIRECT_PATH } from './redirect-listener.js';

/** How long the host waits for the user to finish authorizing in the browser. */
export const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 300_000;

export interface RemoteAuthorizationOptions {
  /** The host's state folder; tokens go to `<stateDirectory>/oauth/`, owner-only. */
  stateDirectory: string;
  /** `client_name` in dynamic registration. Default `mcp-host`. */
  clientName?: string;
  /**
   * Hands an authorization URL to a browser. Leave undefined where no browser can be opened (see `isHeadless`):
   * the URL is then only reported through `onAuthorizationRequired`, for the user to open themselves.
   */
  openUrl?: (url: string) => Promise<void>;
  /** Tells the user that a server needs authorizing, with the URL (and whether a browser was opened). */
  onAuthorizationRequired?: (request: AuthorizationRequest) => void;
  /** Default `DEFAULT_AUTHORIZATION_TIMEOUT_MS` (5 minutes). */
  authorizationTimeoutMs?: number;
  /** Name resolution for the address guard; the system resolver by default. Tests replace it. */
  lookup?: HostLookup;
  /** The fetch under the guard; the global fetch by default. */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /**
   * The run's secrets (`HostConfig.secrets`): every credential the flow reads or is given (an ID token read from its
   * file, an ID-JAG, the tokens and a registered client's secret from the server's OAuth file) is added, so it is
   * redacted wherever the host prints or records data, like the config's own.
   */
  secrets?: string[];
}

export interface RemoteAuthorization {
  /** The session for one remote server, or undefined when its config turns OAuth off. */
  forServer(config: RemoteServerConfig): Promise<AuthorizationSession | undefined>;
}

export function createRemoteAuthorization(options: RemoteAuthorizationOptions): RemoteAuthorization {
  const rememberSecret = (value: string): void => {
    if (options.secrets !== undefined && value !== '' && !options.secrets.includes(value)) options.secrets.push(value);
  };
  return {
    async forServer(config) {
      if (config.oauth === false) return undefined;
      const settings = config.oauth ?? {};
      const store = new OAuthStore(options.stateDirectory, config.name, config.url, rememberSecret);
      const clientName = options.clientName ?? 'mcp-host';
      if (settings.grant === 'client_credentials' || settings.grant === 'cross_app_access') {
        const session = new AuthorizationSession({
          serverName: config.name,
          serverUrl: config.url,
          // Never listened on: an unattended client has no redirect.
          redirectPort: 0,
          authorizationTimeoutMs: options.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
          fetch: guardedFetch(config, options),
        });
        const provider =
          settings.grant === 'client_credentials'
            ? new HostClientCredentialsProvider({ serverName: config.name, store, settings, clientName })
            : new HostCrossAppAccessProvider({
                serverName: config.name,
                store,
                settings,
                clientName,
                // The identity provider is the user's own choice in the config, not a URL the server handed over.
                identityProviderFetch: options.fetch ?? ((url, init) => fetch(url, init)),
                rememberSecret,
              });
        session.attach(provider);
        return session;
      }
      const redirectPort = settings.redirectPort ?? registeredLoopbackPort(store) ?? (await findFreePort());
      const session = new AuthorizationSession({
        serverName: config.name,
        serverUrl: config.url,
        redirectPort,
        authorizationTimeoutMs: options.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
        fetch: guardedFetch(config, options),
        openUrl: options.openUrl,
        onAuthorizationRequired: options.onAuthorizationRequired,
      });
      session.attach(
        new HostOAuthProvider({
          serverName: config.name,
          store,
          settings,
          clientName,
          redirectUrl: `http://127.0.0.1:${redirectPort}${REDIRECT_PATH}`,
          startAuthorization: (url, codeVerifier) => session.startAuthorization(url, codeVerifier),
        }),
      );
      return session;
    },
  };
}

/** Every request of the server's transports and OAuth flow passes the address guard. */
function guardedFetch(config: RemoteServerConfig, options: RemoteAuthorizationOptions) {
  return createGuardedFetch({
    serverUrl: config.url,
    guard: createUrlGuard({ serverUrl: config.url, lookup: options.lookup }),
    configuredHeaders: config.headers,
    fetch: options.fetch,
  });
}

/**
 * A dynamically registered client is registered with one redirect URL; listen on its port again so the
 * authorization server keeps accepting it (RFC 8252 asks servers to accept any loopback port; not all do).
 */
function registeredLoopbackPort(store: OAuthStore): number | undefined {
  const { clientInformation, redirectUrl } = store.get();
  if (clientInformation === undefined || redirectUrl === undefined) return undefined;
  try {
    const url = new URL(redirectUrl);
    return url.hostname === '127.0.0.1' && url.port !== '' ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}
