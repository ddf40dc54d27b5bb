/**
 * Rules shared by every kind of OAuth client the host runs for a remote server: credentials configured for a
 * client stay bound to the first authorization server they were sent to, and tokens are only requested for the
 * server's own URL.
 */
import { checkResourceAllowed, type OAuthClientInformationContext } from '@modelcontextprotocol/client';
import type { OAuthStore } from './oauth-store.js';

/** Thrown when the host refuses to go on with an authorization the SDK would otherwise attempt. */
export class OAuthRefusedError extends Error {
  override readonly name = 'OAuthRefusedError';
}

/**
 * The issuer a configured client's credentials belong to: trust on first use, recorded in the store. Throws when
 * the server now names another authorization server, before anything is sent to it.
 */
export function boundIssuer(
  store: OAuthStore,
  serverName: string,
  context: OAuthClientInformationContext | undefined,
): string | undefined {
  let firstIssuer = store.get().preRegisteredIssuer;
  if (context && firstIssuer === undefined) {
    firstIssuer = context.issuer;
    store.update({ preRegisteredIssuer: firstIssuer });
  }
  if (context && firstIssuer !== undefined && !sameIssuer(firstIssuer, context.issuer)) {
    throw new OAuthRefusedError(
      `server "${serverName}" now names the authorization server ${context.issuer}, but its pre-registered client was used with ${firstIssuer}; refusing to send the client's credentials elsewhere (delete ${store.file} if the change is expected)`,
    );
  }
  return firstIssuer;
}

/**
 * The `resource` to request tokens for: the server's URL when it publishes no resource metadata (so the parameter
 * is always sent), and a refusal when the metadata names a resource that is not the server.
 */
export function protectedResource(serverName: string, serverUrl: string | URL, resource: string | undefined): URL {
  if (resource === undefined) return new URL(String(serverUrl));
  if (!checkResourceAllowed({ requestedResource: serverUrl, configuredResource: resource })) {
    throw new OAuthRefusedError(
      `server "${serverName}" claims to be the protected resource ${resource}, which is not ${String(serverUrl)}; refusing to authorize`,
    );
  }
  // Sent exactly as published (RFC 9728 §3.3): a URL object would turn a pathless `https://host` into
  // `https://host/`. The SDK writes the indicator with `typeof resource === 'string' ? resource : resource.href`.
  return resource as unknown as URL;
}

function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}
