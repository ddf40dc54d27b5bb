/** OAuth for the host's remote servers: one authorization per host, tokens in its state folder. */
import type { HostConfig } from '../config/types.js';
import type { RemoteAuthorization } from '../connections/oauth/remote-authorization.js';
import type { HostOptions } from './host-types.js';

/**
 * OAuth for remote servers, only when the config has any; tokens live in the state folder. The credentials it reads
 * at run time are added to `config.secrets`. Its modules are loaded
 * only then: a host of stdio servers never loads them.
 */
export async function remoteServerAuthorization(
  config: HostConfig,
  stateDirectory: string,
  options: HostOptions,
  diagnostic: (message: string) => void,
): Promise<RemoteAuthorization | undefined> {
  if (!config.servers.some((server) => server.transport !== 'stdio' && !server.disabled)) return undefined;
  const [{ createSystemUrlOpener }, { isHeadless }, { createRemoteAuthorization }] = await Promise.all([
    import('../client-features/open-url.js'),
    import('../connections/oauth/authorization-url.js'),
    import('../connections/oauth/remote-authorization.js'),
  ]);
  const openUrl =
    options.openAuthorizationUrl === false
      ? undefined
      : (options.openAuthorizationUrl ?? (isHeadless() ? undefined : createSystemUrlOpener()));
  return createRemoteAuthorization({
    stateDirectory,
    secrets: config.secrets,
    openUrl,
    onAuthorizationRequired: (request) =>
      diagnostic(
        request.opened
          ? `server "${request.server}" needs authorization: a browser was opened at ${request.url}`
          : `server "${request.server}" needs authorization: open this URL in a browser to continue: ${request.url}${request.openError ? ` (${request.openError})` : ''}`,
      ),
  });
}
