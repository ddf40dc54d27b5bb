/**
 * What the host remembers about one remote server's OAuth between runs: the client registration, the tokens and
 * the discovery results. One JSON file per server under `<stateDir>/oauth/`, readable by the owner only (the folder
 * 0700, the file 0600): it holds bearer and refresh tokens that act as the user.
 *
 * The file name carries a hash of the server's URL, so tokens obtained for one URL are never sent to another URL
 * that later takes the same server name in the config.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { readFailureText, readStateFile } from '../../json/read-bounded-file.js';

/** The folder under the state directory. */
export const OAUTH_FOLDER_NAME = 'oauth';
export const OAUTH_FOLDER_MODE = 0o700;
export const OAUTH_FILE_MODE = 0o600;
/** Tokens, a client registration and metadata: a few kilobytes. */
const MAX_OAUTH_STATE_BYTES = 1024 * 1024;

export interface StoredOAuthState {
  /** The server URL the entry belongs to; an entry for another URL is ignored. */
  serverUrl: string;
  clientInformation?: StoredOAuthClientInformation;
  /** The redirect URL the client was registered with; later runs listen on the same port. */
  redirectUrl?: string;
  tokens?: StoredOAuthTokens;
  discoveryState?: OAuthDiscoveryState;
  /** For a pre-registered client: the authorization server its credentials were first used with. */
  preRegisteredIssuer?: string;
}

export class OAuthStore {
  readonly file: string;
  private state: StoredOAuthState;

  /**
   * `onCredential` is told every token and client secret the file holds or is given, so the host can redact them
   * from what it prints and records as it does the config's secrets.
   */
  constructor(
    stateDirectory: string,
    serverName: string,
    readonly serverUrl: string,
    private readonly onCredential?: (value: string) => void,
  ) {
    this.file = path.join(stateDirectory, OAUTH_FOLDER_NAME, oauthFileName(serverName, serverUrl));
    this.state = readState(this.file, serverUrl);
    this.reportCredentials();
  }

  get(): Readonly<StoredOAuthState> {
    return this.state;
  }

  /** Applies `change` and writes the file at once, so a crash later in the flow loses nothing already granted. */
  update(change: Partial<Omit<StoredOAuthState, 'serverUrl'>>): void {
    this.state = { ...this.state, ...change, serverUrl: this.serverUrl };
    for (const key of Object.keys(change) as Array<keyof StoredOAuthState>) {
      if (this.state[key] === undefined) delete this.state[key];
    }
    writeState(this.file, this.state);
    this.reportCredentials();
  }

  private reportCredentials(): void {
    if (this.onCredential === undefined) return;
    const { tokens, clientInformation } = this.state;
    for (const value of [
      tokens?.access_token,
      tokens?.refresh_token,
      tokens?.id_token,
      clientInformation?.client_secret,
    ]) {
      if (typeof value === 'string' && value !== '') this.onCredential(value);
    }
  }
}

/** `<sanitised name>-<12 hex digits of the URL's SHA-256>.json`. */
export function oauthFileName(serverName: string, serverUrl: string): string {
  const safeName = serverName.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'server';
  const hash = createHash('sha256').update(serverUrl).digest('hex').slice(0, 12);
  return `${safeName}-${hash}.json`;
}

function readState(file: string, serverUrl: string): StoredOAuthState {
  let text: string | undefined;
  try {
    text = readStateFile(file, MAX_OAUTH_STATE_BYTES);
  } catch (error) {
    throw new Error(
      `could not read the OAuth state ${file} (${readFailureText(error, MAX_OAUTH_STATE_BYTES)}); fix its permissions or delete it.`,
    );
  }
  if (text === undefined) return { serverUrl };
  try {
    const parsed = JSON.parse(text) as StoredOAuthState;
    if (parsed === null || typeof parsed !== 'object' || parsed.serverUrl !== serverUrl) return { serverUrl };
    return parsed;
  } catch {
    // A damaged file only costs a new authorization; the next save replaces it.
    return { serverUrl };
  }
}

function writeState(file: string, state: StoredOAuthState): void {
  const folder = path.dirname(file);
  ensurePrivateFolder(folder);
  const temporary = path.join(folder, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: OAUTH_FILE_MODE, flag: 'wx' });
    chmodSync(temporary, OAUTH_FILE_MODE);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(
      `could not save OAuth tokens to ${file} (${(error as Error).message}); check that the state folder is writable.`,
    );
  }
}

function ensurePrivateFolder(folder: string): void {
  try {
    if (statSync(folder).isDirectory()) {
      // A folder that another tool created with wider rights would expose the tokens inside it.
      chmodSync(folder, OAUTH_FOLDER_MODE);
      return;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(folder, { recursive: true, mode: OAUTH_FOLDER_MODE });
  chmodSync(folder, OAUTH_FOLDER_MODE);
}
