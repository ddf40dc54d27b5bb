/**
 * Authorization servers laid out as the 2025-03-26 revision described them: the MCP server publishes no protected
 * resource metadata, and the authorization server metadata sits at the root of the MCP server's own origin. Such
 * metadata may name an issuer with a path on that origin (`https://mcp.example.com/oauth`), which RFC 8414 §3.3's
 * echo check (the SDK's) rejects, since the client built the well-known URL from the bare origin.
 *
 * The check exists so that metadata cannot claim an issuer the client did not ask for. Here the client had no
 * issuer to ask for: it guessed the origin, and the metadata came from the MCP server's own origin. The host
 * accepts the named issuer in that case only — no resource metadata, and an issuer on the MCP server's origin — and
 * keeps refusing a mismatch anywhere else, and every other rule (PKCE S256 listed in the metadata) still applies.
 */
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  type FetchLike,
  IssuerMismatchError,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/client';

/** The discovery state to use instead, when `error` is a metadata issuer mismatch of the 2025-03-26 layout. */
export async function legacyDiscoveryState(
  error: unknown,
  serverUrl: string,
  fetch: FetchLike,
): Promise<OAuthDiscoveryState | undefined> {
  const mismatch = findIssuerMismatch(error);
  const origin = new URL(serverUrl).origin;
  if (mismatch?.expected === undefined || !sameOrigin(mismatch.received, origin)) return undefined;
  // The SDK fell back to the bare origin as the authorization server, which it does when it found no resource
  // metadata naming one.
  if (new URL(mismatch.expected).href !== `${origin}/`) return undefined;
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl, undefined, fetch);
    // The server publishes resource metadata, so this is not the old layout: the mismatch stands.
    return undefined;
  } catch (discoveryError) {
    if (discoveryError instanceof TypeError) throw discoveryError;
  }
  const metadata = await discoverAuthorizationServerMetadata(`${origin}/`, {
    fetchFn: fetch,
    skipIssuerValidation: true,
  });
  if (metadata === undefined || !sameOrigin(metadata.issuer, origin)) return undefined;
  return { authorizationServerUrl: metadata.issuer, authorizationServerMetadata: metadata };
}

function findIssuerMismatch(error: unknown): IssuerMismatchError | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (IssuerMismatchError.isInstance(current) && current.kind === 'metadata') return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function sameOrigin(url: string | undefined, origin: string): boolean {
  try {
    return url !== undefined && new URL(url).origin === origin;
  } catch {
    return false;
  }
}
