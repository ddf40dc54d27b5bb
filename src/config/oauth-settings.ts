/**
 * The `oauth` key of a remote server entry: its shape, and its meaning once substituted. `false` turns OAuth off
 * for the server; an object adjusts it. The client secret and private key go into the config's secrets, so they
 * are redacted wherever the host prints or records data. A `client_credentials` or `cross_app_access` client acts
 * without a person at a browser, so its credential must come from the environment (`${env:NAME}`), never be written
 * into the file.
 */

import { z } from 'zod';
import { ConfigError, describeConfigFile } from './config-error.js';
import { firstIssue } from './config-schema.js';
import { buildIdentityProviderSettings, ENVIRONMENT_REFERENCE } from './identity-provider-settings.js';
import { describeValue, formatKeyPath, isPlainObject, type KeyPathSegment, valueAtPath } from './key-path.js';
import { isPrivateKeyProblem, readPrivateKeySetting } from './private-key-setting.js';
import { type OAuthGrant, PRIVATE_KEY_SIGNING_ALGORITHMS, type RemoteOAuthSettings } from './types.js';

const nonEmptyString = (what: string) => z.string({ error: what }).min(1, { error: `a non-empty ${what}` });

/** What `oauth` must be when it is not `false`. */
const oauthSettingsSchema = z.object({
  grant: z
    .enum(['authorization_code', 'client_credentials', 'cross_app_access'], {
      error:
        '"authorization_code" (a person authorizes in the browser), "client_credentials" (unattended) or "cross_app_access" (with the ID token from an enterprise identity provider)',
    })
    .optional(),
  clientId: nonEmptyString('client ID as a string').optional(),
  clientSecret: nonEmptyString('client secret as a string').optional(),
  scopes: z.array(nonEmptyString('scope as a string'), { error: 'an array of scope strings' }).optional(),
  privateKey: nonEmptyString('PEM private key as a string').optional(),
  signingAlgorithm: z
    .enum(PRIVATE_KEY_SIGNING_ALGORITHMS, { error: `one of ${PRIVATE_KEY_SIGNING_ALGORITHMS.join(', ')}` })
    .optional(),
  clientMetadataUrl: nonEmptyString('URL as a string').optional(),
  redirectPort: z
    .int({ error: 'a port number from 1 to 65535' })
    .min(1, { error: 'a port number from 1 to 65535' })
    .max(65535, { error: 'a port number from 1 to 65535' })
    .optional(),
  /** Checked by `buildIdentityProviderSettings`, which reports the exact key inside it. */
  identityProvider: z.unknown().optional(),
});

const EXPECTED_OAUTH =
  'false (no OAuth) or an object with `grant`, `clientId`, `clientSecret`, `privateKey`, `signingAlgorithm`, `identityProvider`, `scopes`, `clientMetadataUrl` or `redirectPort`';

/** Settings that only one grant uses: the browser flow, `client_credentials`, `cross_app_access`. */
const GRANT_ONLY: ReadonlyArray<
  readonly ['clientMetadataUrl' | 'redirectPort' | 'privateKey' | 'signingAlgorithm' | 'identityProvider', OAuthGrant]
> = [
  ['clientMetadataUrl', 'authorization_code'],
  ['redirectPort', 'authorization_code'],
  ['privateKey', 'client_credentials'],
  ['signingAlgorithm', 'client_credentials'],
  ['identityProvider', 'cross_app_access'],
];

const OAUTH_SETTING_KEYS: ReadonlySet<string> = new Set(Object.keys(oauthSettingsSchema.shape));

interface OAuthSettingsContext {
  file: string | undefined;
  /** Where the server entry is, e.g. `['mcpServers', 'remote']`. */
  serverPath: ReadonlyArray<KeyPathSegment>;
  /** Folder that relative paths resolve against (the config file's). */
  baseDirectory: string;
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
  const grant = entry.grant ?? 'authorization_code';
  const unattended = grant !== 'authorization_code';
  if (entry.grant !== undefined) settings.grant = entry.grant;
  for (const [key, onlyWith] of GRANT_ONLY) {
    if (entry[key] !== undefined && grant !== onlyWith) {
      throw invalid([key], `no \`${key}\`: it is only used with \`"grant": "${onlyWith}"\``, describeValue(raw[key]));
    }
  }
  if (unattended && entry.clientId === undefined) {
    throw invalid(['clientId'], `the client ID registered for \`${grant}\``, 'nothing');
  }
  if (grant === 'cross_app_access' && entry.identityProvider === undefined) {
    throw invalid(
      ['identityProvider'],
      'the identity provider the ID token is exchanged at, with `"grant": "cross_app_access"`',
      'nothing',
    );
  }
  if (grant === 'client_credentials') {
    if ((entry.clientSecret === undefined) === (entry.privateKey === undefined)) {
      const found = entry.clientSecret === undefined ? 'neither' : 'both';
      throw invalid([], 'either `clientSecret` or `privateKey` with `"grant": "client_credentials"`', found);
    }
    if (entry.signingAlgorithm !== undefined && entry.privateKey === undefined) {
      throw invalid(['privateKey'], 'the private key that `signingAlgorithm` signs with', 'nothing');
    }
  }
  if (unattended) {
    for (const key of ['clientSecret', 'privateKey'] as const) {
      const value = entry[key];
      if (value !== undefined && !ENVIRONMENT_REFERENCE.test(value)) {
        throw invalid(
          [key],
          // biome-ignore lint/suspicious/noTemplateCurlyInString: this message shows the config syntax.
          'a reference to an environment variable such as `${env:MCP_CLIENT_SECRET}`: an unattended credential is not written into the config file',
          'a value written in the file',
        );
      }
    }
  }
  if (entry.clientId !== undefined) settings.clientId = context.substitute(entry.clientId, 'oauth', 'clientId');
  if (entry.clientSecret !== undefined) {
    if (entry.clientId === undefined) {
      throw invalid(['clientId'], 'the client ID that goes with `clientSecret`', 'nothing');
    }
    settings.clientSecret = context.substitute(entry.clientSecret, 'oauth', 'clientSecret');
    if (settings.clientSecret !== '') context.secrets.add(settings.clientSecret);
  }
  if (entry.privateKey !== undefined) {
    const pem = context.substitute(entry.privateKey, 'oauth', 'privateKey');
    if (pem !== '') context.secrets.add(pem);
    // Left as written when its variable is unset: the server is then unavailable, and there is no key to read.
    if (pem !== entry.privateKey) {
      const key = readPrivateKeySetting(pem, entry.signingAlgorithm);
      if (isPrivateKeyProblem(key)) throw invalid([key.key], key.expected, key.found);
      context.secrets.add(key.pkcs8Pem);
      settings.privateKey = key.pkcs8Pem;
      settings.signingAlgorithm = key.algorithm;
    }
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
  if (entry.identityProvider !== undefined) {
    settings.identityProvider = buildIdentityProviderSettings(entry.identityProvider, {
      baseDirectory: context.baseDirectory,
      substitute: context.substitute,
      secrets: context.secrets,
      invalid,
      ignored: (segments) =>
        context.warnings.push(
          `${describeConfigFile(context.file)}: ${at(segments)}: not an OAuth setting mcp-host uses; ignored`,
        ),
    });
  }
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
