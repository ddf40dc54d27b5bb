/**
 * The host's `OAuthClientProvider` for one remote server: the SDK's `auth()` drives discovery, registration, PKCE
 * and token requests, and asks this object for what the host knows and decides. It adds the host's own rules on
 * top of the SDK: it refuses authorization servers that do not advertise PKCE S256, it always sends the RFC 8707
 * `resource` parameter (the server's URL when the server publishes no resource metadata) and refuses a resource
 * that is not the server's, and a pre-registered client's secret is never sent to a second authorization server.
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteOAuthSettings } from '../../config/types.js';
import { boundIssuer, OAuthRefusedError, protectedResource } from './credential-binding.js';
import type { OAuthStore } from './oauth-store.js';

export { OAuthRefusedError };

interface HostOAuthProviderOptions {
  serverName: string;
  store: OAuthStore;
  settings: RemoteOAuthSettings;
  /** `client_name` sent in dynamic registration. */
  clientName: string;
  redirectUrl: string;
  /** Starts the interactive part: listen for the redirect, open or show the URL. */
  startAuthorization: (url: URL, codeVerifier: string) => Promise<void>;
}

/** Code verifiers kept while their authorization URLs may still come back; a few cover parallel 401s. */
const MAX_PENDING_VERIFIERS = 8;

export class HostOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  private readonly pendingVerifiers: string[] = [];
  private verifierForExchange: string | undefined;

  constructor(private readonly options: HostOAuthProviderOptions) {
    this.clientMetadataUrl = options.settings.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.settings.scopes?.join(' ');
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.options.redirectUrl],
      // Asking for refresh tokens spares the user a browser round trip when the access token expires.
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A native application cannot keep a secret (RFC 8252 §8.5): register as a public client.
      token_endpoint_auth_method: 'none',
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  clientInformation(context?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const { clientId, clientSecret } = this.options.settings;
    if (clientId === undefined) return this.options.store.get().clientInformation;
    const issuer = boundIssuer(this.options.store, this.options.serverName, context);
    return {
      client_id: clientId,
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
      ...(issuer === undefined ? {} : { issuer }),
    };
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    if (this.options.settings.clientId !== undefined) {
      this.options.store.update({ preRegisteredIssuer: information.issuer });
      return;
    }
    this.options.store.update({ clientInformation: information, redirectUrl: this.options.redirectUrl });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.options.store.get().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.options.store.update({ tokens });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.pendingVerifiers.push(codeVerifier);
    if (this.pendingVerifiers.length > MAX_PENDING_VERIFIERS) this.pendingVerifiers.shift();
  }

  codeVerifier(): string {
    const verifier = this.verifierForExchange ?? this.pendingVerifiers.at(-1);
    if (verifier === undefined) {
      throw new Error(`no PKCE code verifier for server "${this.options.serverName}": start the authorization again`);
    }
    return verifier;
  }

  /** The verifier the next token exchange uses: the one whose challenge went out in that flow's URL. */
  useVerifierForExchange(codeVerifier: string | undefined): void {
    this.verifierForExchange = codeVerifier;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.assertPkceSupported(this.options.store.get().discoveryState);
    // Several `auth()` runs can overlap (parallel 401s); pair this URL with the verifier behind its challenge.
    const challenge = authorizationUrl.searchParams.get('code_challenge');
    const verifier = this.pendingVerifiers.find((candidate) => s256(candidate) === challenge);
    if (verifier === undefined || authorizationUrl.searchParams.get('code_challenge_method') !== 'S256') {
      throw new OAuthRefusedError(`the authorization request for server "${this.options.serverName}" lacks PKCE S256`);
    }
    await this.options.startAuthorization(authorizationUrl, verifier);
  }

  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    return protectedResource(this.options.serverName, serverUrl, resource);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // Checked here, before any registration with the authorization server, and again before the redirect.
    this.assertPkceSupported(state);
    this.options.store.update({ discoveryState: state });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    const state = this.options.store.get().discoveryState;
    // A server with resource metadata may name another authorization server at any time (SEP-2352): outside a code
    // exchange, discover afresh so the change is seen; the exchange needs the state its authorization began with.
    // A server without it (the 2025-03-26 layout) keeps the state adopted for it.
    if (state?.resourceMetadata !== undefined && this.verifierForExchange === undefined) return undefined;
    return state;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const store = this.options.store;
    if (scope === 'all' || scope === 'client') store.update({ clientInformation: undefined, redirectUrl: undefined });
    if (scope === 'all' || scope === 'tokens') store.update({ tokens: undefined });
    if (scope === 'all' || scope === 'discovery') store.update({ discoveryState: undefined });
    if (scope === 'all' || scope === 'verifier') {
      this.pendingVerifiers.length = 0;
      this.verifierForExchange = undefined;
    }
  }

  /**
   * The MCP authorization spec: a client MUST refuse to proceed when the authorization server's metadata does not
   * list `code_challenge_methods_supported` (and S256 in it), since PKCE support cannot otherwise be verified.
   */
  private assertPkceSupported(state: OAuthDiscoveryState | undefined): void {
    const server = `server "${this.options.serverName}"`;
    const where = state?.authorizationServerUrl ?? 'its authorization server';
    const metadata = state?.authorizationServerMetadata;
    if (metadata === undefined) {
      throw new OAuthRefusedError(
        `${server}: ${where} publishes no authorization server metadata, so its PKCE support cannot be verified; refusing to authorize`,
      );
    }
    const methods = metadata.code_challenge_methods_supported;
    if (methods === undefined) {
      throw new OAuthRefusedError(
        `${server}: the metadata of ${where} does not list code_challenge_methods_supported, so its PKCE support cannot be verified; refusing to authorize`,
      );
    }
    if (!methods.includes('S256')) {
      throw new OAuthRefusedError(
        `${server}: ${where} does not support PKCE with S256 (it lists ${methods.join(', ') || 'nothing'}); refusing to authorize`,
      );
    }
  }
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
