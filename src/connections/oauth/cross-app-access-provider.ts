/**
 * The `OAuthClientProvider` for a server configured with `"grant": "cross_app_access"` (enterprise-managed
 * authorization, SEP-990): the person signed in to their enterprise identity provider, and the host
 *   1. exchanges their ID token at that identity provider for an ID-JAG (RFC 8693 token exchange), naming the MCP
 *      server's authorization server as the audience and the server as the resource, then
 *   2. exchanges the ID-JAG at the server's authorization server for an access token (RFC 7523 JWT bearer grant),
 *      authenticating as its client there.
 * No browser is involved. The SDK's `auth()` discovers the authorization server and the resource, hands them over
 * (`saveAuthorizationServerUrl`, `saveResourceUrl`) and asks `prepareTokenRequest` for the grant; the two requests
 * themselves are the SDK's (`requestJwtAuthorizationGrant`, and its token request with client authentication).
 *
 * It is the same unattended client as `client_credentials` in everything else (credentials bound to the first
 * authorization server, tokens in the server's owner-only OAuth file, tokens only for the server's own URL); the
 * SDK's own `CrossAppAccessProvider` keeps tokens in memory and binds only to an issuer given up front.
 * The ID token, the ID-JAG and the tokens never appear in a message.
 */
import { open } from 'node:fs/promises';
import {
  discoverAndRequestJwtAuthGrant,
  type FetchLike,
  type OAuthClientMetadata,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import type { IdentityProviderSettings } from '../../config/types.js';
import { type ClientCredentialsProviderOptions, HostClientCredentialsProvider } from './client-credentials-provider.js';
import { OAuthRefusedError } from './credential-binding.js';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** An ID token is a few kilobytes; a bigger file is not one. */
const MAX_ID_TOKEN_FILE_BYTES = 64 * 1024;

interface CrossAppAccessProviderOptions extends ClientCredentialsProviderOptions {
  /** The fetch for the identity provider, which the user configured (not a URL the server handed over). */
  identityProviderFetch: FetchLike;
  /** Told the ID token read from its file and each ID-JAG, so they are redacted like the config's secrets. */
  rememberSecret?: (value: string) => void;
}

export class HostCrossAppAccessProvider extends HostClientCredentialsProvider {
  private readonly identityProvider: IdentityProviderSettings;
  private authorizationServer: string | undefined;
  private resource: string | undefined;

  constructor(private readonly crossAppOptions: CrossAppAccessProviderOptions) {
    super(crossAppOptions);
    const { identityProvider } = crossAppOptions.settings;
    if (identityProvider === undefined) {
      throw new Error(`server "${crossAppOptions.serverName}": cross_app_access needs oauth.identityProvider`);
    }
    this.identityProvider = identityProvider;
  }

  override get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.settings.scopes?.join(' ');
    return {
      client_name: this.options.clientName,
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: this.options.settings.clientSecret === undefined ? 'none' : 'client_secret_basic',
      ...(scope ? { scope } : {}),
    };
  }

  /** Called by the SDK after discovery: the issuer of the server's authorization server, the ID-JAG's audience. */
  saveAuthorizationServerUrl(url: string): void {
    this.authorizationServer = url;
  }

  /** Called by the SDK after discovery: the resource the ID-JAG and the token are for. */
  saveResourceUrl(url: string): void {
    this.resource = url;
  }

  override async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const assertion = await this.requestIdJag(scope);
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
    if (scope) params.set('scope', scope);
    return params;
  }

  private async requestIdJag(scope: string | undefined): Promise<string> {
    const { serverName } = this.options;
    if (this.authorizationServer === undefined || this.resource === undefined) {
      throw new OAuthRefusedError(
        `server "${serverName}": cross_app_access needs the server's authorization server and resource from its metadata before asking for an ID-JAG`,
      );
    }
    const idp = this.identityProvider;
    const request = {
      audience: this.authorizationServer,
      resource: this.resource,
      idToken: await this.readIdToken(),
      clientId: idp.clientId,
      ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
      ...(scope ? { scope } : {}),
      fetchFn: this.crossAppOptions.identityProviderFetch,
    };
    const where = idp.tokenEndpoint ?? idp.issuer;
    try {
      const result =
        idp.tokenEndpoint === undefined
          ? await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer ?? '' })
          : await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint });
      this.crossAppOptions.rememberSecret?.(result.jwtAuthGrant);
      return result.jwtAuthGrant;
    } catch (error) {
      // The SDK's messages carry the identity provider's error code and description, never the tokens sent.
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(
        `server "${serverName}": the identity provider ${where} (oauth.identityProvider) did not exchange the ID token for an ID-JAG: ${why}`,
        { cause: error },
      );
    }
  }

  private async readIdToken(): Promise<string> {
    const { idToken, idTokenFile } = this.identityProvider;
    const setting = idTokenFile === undefined ? 'idToken' : 'idTokenFile';
    const token = idTokenFile === undefined ? idToken : await this.readIdTokenFile(idTokenFile);
    if (token === undefined || token.trim() === '') {
      throw new OAuthRefusedError(
        `server "${this.options.serverName}": oauth.identityProvider.${setting} holds no ID token${idTokenFile === undefined ? '' : ` (${idTokenFile} is empty)`}`,
      );
    }
    const trimmed = token.trim();
    // Known before the identity provider sees it: an error that echoes it is redacted too.
    this.crossAppOptions.rememberSecret?.(trimmed);
    return trimmed;
  }

  private async readIdTokenFile(file: string): Promise<string> {
    const where = `server "${this.options.serverName}": oauth.identityProvider.idTokenFile`;
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new OAuthRefusedError(`${where}: cannot read ${file} (${code})`);
    }
    try {
      const buffer = Buffer.alloc(MAX_ID_TOKEN_FILE_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_ID_TOKEN_FILE_BYTES) {
        throw new OAuthRefusedError(`${where}: ${file} is over ${MAX_ID_TOKEN_FILE_BYTES} bytes, not an ID token`);
      }
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  }
}
