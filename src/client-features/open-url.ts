/**
 * Opens a URL in the user's browser, only after they consented, and never through a shell: the URL is one
 * argument to the platform's opener, so no character in it can start another command. Only http and https URLs
 * are opened; the host itself never fetches them.
 */
import { spawn } from 'node:child_process';

/** Opens an already-approved URL; rejects with a message when it could not. */
export type UrlOpener = (url: string) => Promise<void>;

/** The program and arguments that open `url` on `platform`, without a shell. */
export function browserCommand(url: string, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd.exe built-in and would need a shell; the URL handler is reached directly.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

export function createSystemUrlOpener(platform: NodeJS.Platform = process.platform): UrlOpener {
  return (url: string) =>
    new Promise<void>((resolve, reject) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        reject(new Error(`not a valid URL: ${url}`));
        return;
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        reject(new Error(`only http and https URLs are opened, not ${parsed.protocol}`));
        return;
      }
      const { command, args } = browserCommand(parsed.href, platform);
      const child = spawn(command, args, { shell: false, stdio: 'ignore', detached: true });
      child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
}
