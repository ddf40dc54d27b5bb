/**
 * `oauth.identityProvider` of a server with `"grant": "cross_app_access"`: the enterprise identity provider the
 * person's ID token is exchanged at for an ID-JAG. The ID token and the client secret are credentials: they come
 * from the environment (`${env:NAME}`) or, for the ID token, from a file a sign-in tool keeps fresh; never written
 * into the config file, and redacted wherever the host prints or records data.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ConfigError } from './config-error.js';
import { firstIssue } from './config-schema.js';
import { checkSecureUrl } from './gateway-oauth-settings.js';
import { describeValue, isPlainObject, type KeyPathSegment, valueAtPath } from './key-path.js';
import type { IdentityProviderSettings } from './types.js';

const nonEmptyString = (what: string) => z.string({ error: what }).min(1, { error: `a non-empty ${what}` });

const identityProviderSchema = z.object({
  issuer: nonEmptyString('URL as a string').optional(),
  tokenEndpoint: nonEmptyString('URL as a string').optional(),
  clientId: nonEmptyString('client ID as a string').optional(),
  clientSecret: nonEmptyString('client secret as a string').optional(),
  idToken: nonEmptyString('ID token reference as a string').optional(),
  idTokenFile: nonEmptyString('file path as a string').optional(),
});

const IDENTITY_PROVIDER_KEYS: ReadonlySet<string> = new Set(Object.keys(identityProviderSchema.shape));

const EXPECTED_IDENTITY_PROVIDER =
  'an object with `issuer` or `tokenEndpoint`, `clientId`, optionally `clientSecret`, and `idToken` or `idTokenFile`';

/** A whole value that is one environment reference: `${env:NAME}` or `${NAME}`, without a fallback. */
export const ENVIRONMENT_REFERENCE = /^\$\{(env:)?[A-Za-z_][A-Za-z0-9_]*\}$/;

interface IdentityProviderContext {
  /** Folder a relative `idTokenFile` resolves against (the config file's). */
  baseDirectory: string;
  /** Substitutes `${env:VAR}` in a value at the given path below the server entry. */
  substitute: (text: string, ...segments: KeyPathSegment[]) => string;
  secrets: Set<string>;
  /** An error for the key at `segments` below `oauth`. */
  invalid: (segments: ReadonlyArray<KeyPathSegment>, expected: string, found?: string) => ConfigError;
  /** A warning for a key below `oauth` that the host does not use. */
  ignored: (segments: ReadonlyArray<KeyPathSegment>) => void;
}

/** `raw` is `oauth.identityProvider` as written in the file. */
export function buildIdentityProviderSettings(
  raw: unknown,
  context: IdentityProviderContext,
): IdentityProviderSettings {
  const at = (key?: string): KeyPathSegment[] => (key === undefined ? ['identityProvider'] : ['identityProvider', key]);
  if (!isPlainObject(raw)) throw context.invalid(at(), EXPECTED_IDENTITY_PROVIDER, describeValue(raw));
  const parsed = identityProviderSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    throw context.invalid(at(String(issue.path[0])), issue.expected, describeValue(valueAtPath(raw, issue.path)));
  }
  for (const key of Object.keys(raw)) if (!IDENTITY_PROVIDER_KEYS.has(key)) context.ignored(at(key));
  const entry = parsed.data;
  if ((entry.issuer === undefined) === (entry.tokenEndpoint === undefined)) {
    throw context.invalid(
      at(),
      'either `issuer` (its token endpoint is discovered) or `tokenEndpoint`',
      entry.issuer === undefined ? 'neither' : 'both',
    );
  }
  if (entry.clientId === undefined) {
    throw context.invalid(at('clientId'), "the host's client ID at the identity provider", 'nothing');
  }
  if ((entry.idToken === undefined) === (entry.idTokenFile === undefined)) {
    throw context.invalid(
      at(),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this message shows the config syntax.
      'either `idToken` (such as `"${env:IDP_ID_TOKEN}"`) or `idTokenFile` (a file holding the ID token)',
      entry.idToken === undefined ? 'neither' : 'both',
    );
  }
  for (const key of ['idToken', 'clientSecret'] as const) {
    const value = entry[key];
    if (value !== undefined && !ENVIRONMENT_REFERENCE.test(value)) {
      throw context.invalid(
        at(key),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this message shows the config syntax.
        'a reference to an environment variable such as `${env:IDP_ID_TOKEN}`: a credential is not written into the config file',
        'a value written in the file',
      );
    }
  }

  const settings: IdentityProviderSettings = {
    clientId: context.substitute(entry.clientId, 'oauth', 'identityProvider', 'clientId'),
  };
  for (const key of ['issuer', 'tokenEndpoint'] as const) {
    const written = entry[key];
    if (written === undefined) continue;
    const url = context.substitute(written, 'oauth', 'identityProvider', key);
    const problem = checkSecureUrl(url);
    if (problem !== undefined) throw context.invalid(at(key), problem, describeValue(written));
    settings[key] = url;
  }
  for (const key of ['clientSecret', 'idToken'] as const) {
    const written = entry[key];
    if (written === undefined) continue;
    const value = context.substitute(written, 'oauth', 'identityProvider', key);
    if (value !== '') context.secrets.add(value);
    settings[key] = value;
  }
  if (entry.idTokenFile !== undefined) {
    const file = context.substitute(entry.idTokenFile, 'oauth', 'identityProvider', 'idTokenFile');
    settings.idTokenFile = path.resolve(context.baseDirectory, file);
  }
  return settings;
}
