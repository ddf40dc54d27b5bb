/**
 * The `oauth` key of a remote server entry: its shape, and its meaning once substituted. `false` turns OAuth off
 * for the server; an object adjusts it. The client secret goes into the config's secrets, so it is redacted
 * wherever the host prints or records data.
 */

import { z } from 'zod';
import { ConfigError, describeConfigFile } from './config-error.js';
import { firstIssue } from './config-schema.js';
import { describeValue, formatKeyPath, isPlainObject, type KeyPathSegment, valueAtPath } from './key-path.js';
import type { RemoteOAuthSettings } from './types.js';

const nonEmptyString = (what: string) => z.string({ error: what }).min(1, { error: `a non-empty ${what}` });

/** What `oauth` must be when it is not `false`. */
export const oauthSettingsSchema = z.object({
  clientId: nonEmptyString('client ID as a string').optional(),
  clientSecret: nonEmptyString('client secret as a string').optional(),
  scopes: z.array(nonEmptyString('scope as a string'), { error: 'an array of scope strings' }).optional(),
  clientMetadataUrl: nonEmptyString('URL as a string').optional(),
  redirectPort: z
    .int({ error: 'a port number from 1 to 65535' })
    .min(1, { error: 'a port number from 1 to 65535' })
    .max(65535, { error: 'a port number from 1 to 65535' })
    .optional(),
});

const EXPECTED_OAUTH =
  'false (no OAuth) or an object with `clientId`, `clientSecret`, `scopes`, `clientMetadataUrl` or `redirectPort`';

export const OAUTH_SETTING_KEYS: ReadonlySet<string> = new Set(Object.keys(oauthSettingsSchema.shape));

export interface OAuthSettingsContext {
  file: string | undefined;
  /** Where the server entry is, e.g. `['mcpServers', 'remote']`. */
  serverPath: ReadonlyArray<KeyPathSegment>;
  /** Substitutes `${env:VAR}` in a value at the given path below the server entry. */
  substitute: (text: string, ...segments: KeyPathSegment[]) => string;
  secrets: Set<string>;
  warnings: string[];
}

/** `raw` is the entry's `oauth` value as written in the file. */
export function buildOAuthSettings(raw: unknown, context: OAuthSettingsContext): RemoteOAuthSettings | false {
  const at = (segments: ReadonlyArray<KeyPathSegment>) => formatKeyPath([...context.serverPath, 'oauth', ...segments]);
  const invalid = (segments: ReadonlyArray<KeyPathSegment>, expected: string, found?: string): ConfigError =>
    new ConfigError({
      code: 'config-invalid',
      file: context.file,
      keyPath: at(segments),
      expected,
      ...(found === undefined ? {} : { found }),
    });
  if (raw === false) return false;
  if (!isPlainObject(raw)) throw invalid([], EXPECTED_OAUTH, describeValue(raw));
  const parsed = oauthSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const segments = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    throw invalid(segments, issue.expected, describeValue(valueAtPath(raw, issue.path)));
  }
  const entry = parsed.data;
  for (const key of Object.keys(raw)) {
    if (!OAUTH_SETTING_KEYS.has(key)) {
      context.warnings.push(
        `${describeConfigFile(context.file)}: ${at([key])}: not an OAuth setting mcp-host uses; ignored`,
      );
    }
  }
  const settings: RemoteOAuthSettings = {};
  if (entry.clientId !== undefined) settings.clientId = context.substitute(entry.clientId, 'oauth', 'clientId');
  if (entry.clientSecret !== undefined) {
    if (entry.clientId === undefined) {
      throw invalid(['clientId'], 'the client ID that goes with `clientSecret`', 'nothing');
    }
    settings.clientSecret = context.substitute(entry.clientSecret, 'oauth', 'clientSecret');
    if (settings.clientSecret !== '') context.secrets.add(settings.clientSecret);
  }
  if (entry.scopes !== undefined) {
    settings.scopes = entry.scopes.map((scope, index) => context.substitute(scope, 'oauth', 'scopes', index));
  }
  if (entry.clientMetadataUrl !== undefined) {
    const url = context.substitute(entry.clientMetadataUrl, 'oauth', 'clientMetadataUrl');
    if (!isMetadataDocumentUrl(url)) {
      throw invalid(
        ['clientMetadataUrl'],
        'an https:// URL with a path (it becomes the client ID)',
        describeValue(entry.clientMetadataUrl),
      );
    }
    settings.clientMetadataUrl = url;
  }
  if (entry.redirectPort !== undefined) settings.redirectPort = entry.redirectPort;
  return settings;
}

function isMetadataDocumentUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.pathname !== '/' && url.pathname !== '';
  } catch {
    return false;
  }
}
