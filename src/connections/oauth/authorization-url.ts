/**
 * Which authorization URLs the host hands to a browser, and whether there is a browser to hand them to. The URL
 * comes from a server's metadata, so only `https:` URLs (or `http:` on this machine, for local development) are
 * opened; anything else is refused rather than passed to the system's URL handler.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Throws when `url` is not one the host will open or show as a link to follow. */
export function assertOpenableAuthorizationUrl(url: URL): void {
  if (url.protocol === 'https:') return;
  const host = url.hostname.toLowerCase();
  const loopback = LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (url.protocol === 'http:' && loopback) return;
  throw new Error(
    `refused to open the authorization URL ${url.origin}${url.pathname}: only https URLs (or http on this machine) are opened`,
  );
}

/**
 * True when no graphical browser can be expected: a Linux or BSD session without a display, or a remote shell.
 * On macOS and Windows a local session always has one.
 */
export function isHeadless(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform === 'darwin' || platform === 'win32') return env.SSH_CONNECTION !== undefined;
  return !env.DISPLAY && !env.WAYLAND_DISPLAY;
}
