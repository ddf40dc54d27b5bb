/** OAuth for remote MCP servers: what the rest of the host uses. */
export {
  type AddressKind,
  classifyAddress,
  createUrlGuard,
  type HostLookup,
  RefusedUrlError,
  type UrlGuard,
  type UrlGuardOptions,
} from './address-guard.js';
export { type AuthorizationRequest, AuthorizationSession, isUnauthorized } from './authorization-session.js';
export { assertOpenableAuthorizationUrl, isHeadless } from './authorization-url.js';
export { connectWithAuthorization } from './connect-with-authorization.js';
export { createGuardedFetch, type GuardedFetchOptions } from './guarded-fetch.js';
export { HostOAuthProvider, OAuthRefusedError } from './host-oauth-provider.js';
export {
  OAUTH_FILE_MODE,
  OAUTH_FOLDER_MODE,
  OAUTH_FOLDER_NAME,
  OAuthStore,
  oauthFileName,
  type StoredOAuthState,
} from './oauth-store.js';
export { AuthorizationCallbackError, REDIRECT_PATH } from './redirect-listener.js';
export {
  createRemoteAuthorization,
  DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  type RemoteAuthorization,
  type RemoteAuthorizationOptions,
} from './remote-authorization.js';
