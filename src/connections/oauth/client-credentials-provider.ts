/**
 * The `OAuthClientProvider` for a server configured with `"grant": "client_credentials"`: the host authenticates
 * as the client itself, with no person and no browser (SEP-1046). The SDK's `auth()` sees no redirect URL and asks
 * the token endpoint directly; the client authenticates with its secret (the SDK picks `client_secret_basic` or
 * `client_secret_post` from the server's metadata) or with a JWT assertion signed by its private key
 * (`private_key_jwt`, signed by the SDK's `createPrivateKeyJwtAuth`).
 *
 * The SDK's own `ClientCredentialsProvider` and `PrivateKeyJwtProvider` bind the credentials only to an issuer
 * given up front and keep tokens in memory; this one follows the host's rules for every configured client instead:
 * the credentials stay bound to the first authorization server they went to, tokens live in the server's owner-only
 * OAuth file, and tokens are only requested for the server's own URL.
 */
import {
  type AddClientAuthentication,
  createPrivateKeyJwtAuth,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteOAuthSettings } from '../../config/types.js';
import { boundIssuer, OAuthRefusedError, protectedResource } from './credential-binding.js';
import type { OAuthStore } from './oauth-store.js';

/** Lifetime of one signed client assertion; each token request signs a fresh one. */
const ASSERTION_LIFETIME_SECONDS = 300;

export interface ClientCredentialsProviderOptions {
  serverName: string;
  store: OAuthStore;
  settings: RemoteOAuthSettings;
  clientName: string;
}

export class HostClientCredentialsProvider implements OAuthClientProvider {
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  private readonly clientId: string;

  constructor(protected readonly options: ClientCredentialsProviderOptions) {
    const { clientId, privateKey, signingAlgorithm } = options.settings;
    if (clientId === undefined) {
      throw new Error(`server "${options.serverName}": ${this.grant} needs oauth.clientId`);
    }
    this.clientId = clientId;
    if (privateKey !== undefined) {
      // RFC 7523 §3: the client is both issuer and subject of its assertion; the audience is the token endpoint's
      // authorization server, which the SDK fills in from its metadata.
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey,
        alg: signingAlgorithm ?? 'RS256',
        lifetimeSeconds: ASSERTION_LIFETIME_SECONDS,
      });
    }
  }

  /** The configured grant, for messages. */
  protected get grant(): string {
    return this.options.settings.grant ?? 'client_credentials';
  }

  /** No redirect: the SDK then takes the non-interactive path straight to the token endpoint. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.settings.scopes?.join(' ');
    return {
      client_name: this.options.clientName,
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.addClientAuthentication ? 'private_key_jwt' : 'client_secret_basic',
      ...(scope ? { scope } : {}),
    };
  }

  clientInformation(context?: OAuthClientInformationContext): StoredOAuthClientInformation {
    const issuer = boundIssuer(this.options.store, this.options.serverName, context);
    const { clientSecret } = this.options.settings;
    return {
      client_id: this.clientId,
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
      ...(issuer === undefined ? {} : { issuer }),
    };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.options.store.get().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.options.store.update({ tokens });
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams> {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    return protectedResource(this.options.serverName, serverUrl, resource);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.options.store.update({ discoveryState: state });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.options.store.get().discoveryState;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens' || scope === 'client') this.options.store.update({ tokens: undefined });
    if (scope === 'all' || scope === 'discovery') this.options.store.update({ discoveryState: undefined });
  }

  redirectToAuthorization(): never {
    throw new OAuthRefusedError(
      `server "${this.options.serverName}" is configured for ${this.grant}, which never sends anyone to a browser`,
    );
  }

  saveCodeVerifier(): void {
    // No authorization code, so no PKCE verifier.
  }

  codeVerifier(): never {
    throw new OAuthRefusedError(`server "${this.options.serverName}" uses ${this.grant}: there is no code verifier`);
  }
}
