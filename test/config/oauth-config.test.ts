// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax under test, not a template mistake.
/** The per-server `oauth` settings: accepted shapes, substitution, secrets, and errors naming the exact key. */
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { RemoteOAuthSettings, RemoteServerConfig } from '../../src/config/types.js';
import { thrownConfigError } from '../helpers/config-errors.js';

const FILE = path.resolve('/projects/demo/mcp-host.json');

function parse(oauth: unknown, env: Record<string, string | undefined> = {}) {
  return parseConfig(
    JSON.stringify({ mcpServers: { remote: { url: 'https://tools.example.test/mcp', oauth } } }),
    FILE,
    env,
  );
}

function remote(oauth: unknown, env: Record<string, string | undefined> = {}): RemoteServerConfig {
  return parse(oauth, env).servers[0] as RemoteServerConfig;
}

function failure(oauth: unknown, env: Record<string, string | undefined> = {}): ConfigError {
  return thrownConfigError(() => parse(oauth, env));
}

describe('mcpServers.NAME.oauth', () => {
  it('is left out when not written, so remote servers get OAuth with the defaults', () => {
    const config = parseConfig(
      JSON.stringify({ mcpServers: { remote: { url: 'https://tools.example.test/mcp' } } }),
      FILE,
      {},
    );
    expect(config.servers[0]).not.toHaveProperty('oauth');
  });

  it('accepts false to turn OAuth off', () => {
    expect(remote(false).oauth).toBe(false);
  });

  it('reads every setting, substitutes variables and treats the client secret as a secret', () => {
    const config = parse(
      {
        clientId: 'mcp-host-${env:TEAM}',
        clientSecret: '${env:OAUTH_SECRET}',
        scopes: ['notes:read', 'notes:write'],
        clientMetadataUrl: 'https://client.example.test/mcp-host.json',
        redirectPort: 8976,
      },
      { TEAM: 'blue', OAUTH_SECRET: 's3cret-value' },
    );
    expect((config.servers[0] as RemoteServerConfig).oauth).toEqual({
      clientId: 'mcp-host-blue',
      clientSecret: 's3cret-value',
      scopes: ['notes:read', 'notes:write'],
      clientMetadataUrl: 'https://client.example.test/mcp-host.json',
      redirectPort: 8976,
    });
    expect(config.secrets).toContain('s3cret-value');
  });

  it('names the exact key of a wrong value', () => {
    const port = failure({ redirectPort: 70000 });
    expect(port.keyPath).toBe('mcpServers.remote.oauth.redirectPort');
    expect(port.message).toBe(
      `${FILE}: mcpServers.remote.oauth.redirectPort: expected a port number from 1 to 65535, found the number 70000.`,
    );
    expect(failure({ scopes: ['read', 3] }).keyPath).toBe('mcpServers.remote.oauth.scopes[1]');
    expect(failure({ clientId: '' }).expected).toBe('a non-empty client ID as a string');
    expect(failure(true).message).toMatch(/mcpServers\.remote\.oauth: expected false \(no OAuth\) or an object/);
  });

  it('wants a client ID with a secret, and an https URL with a path as the metadata document', () => {
    expect(failure({ clientSecret: 'x' }).message).toMatch(
      /oauth\.clientId: expected the client ID that goes with `clientSecret`, found nothing/,
    );
    const insecure = failure({ clientMetadataUrl: 'http://client.example.test/doc.json' });
    expect(insecure.keyPath).toBe('mcpServers.remote.oauth.clientMetadataUrl');
    expect(insecure.expected).toBe('an https:// URL with a path (it becomes the client ID)');
    expect(failure({ clientMetadataUrl: 'https://client.example.test/' }).keyPath).toBe(
      'mcpServers.remote.oauth.clientMetadataUrl',
    );
  });

  it('warns about keys it does not use, and about oauth on a local server', () => {
    expect(parse({ clientId: 'a', audience: 'x' }).warnings).toEqual([
      `${FILE}: mcpServers.remote.oauth.audience: not an OAuth setting mcp-host uses; ignored`,
    ]);
    const local = parseConfig(JSON.stringify({ mcpServers: { fs: { command: 'node', oauth: false } } }), FILE, {});
    expect(local.warnings).toEqual([`${FILE}: mcpServers.fs.oauth: only used by remote servers; ignored`]);
  });

  describe('grant client_credentials', () => {
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    // An EC key in the SEC1 form (`BEGIN EC PRIVATE KEY`), as openssl writes it.
    const ecPem = ecKey.export({ type: 'sec1', format: 'pem' }).toString();
    const rsaPem = rsaKey.export({ type: 'pkcs1', format: 'pem' }).toString();

    it('reads a secret from the environment and keeps it secret', () => {
      const config = parse(
        { grant: 'client_credentials', clientId: 'job', clientSecret: '${env:JOB_SECRET}', scopes: ['notes:read'] },
        { JOB_SECRET: 'job-secret-value' },
      );
      expect((config.servers[0] as RemoteServerConfig).oauth).toEqual({
        grant: 'client_credentials',
        clientId: 'job',
        clientSecret: 'job-secret-value',
        scopes: ['notes:read'],
      });
      expect(config.secrets).toContain('job-secret-value');
    });

    it('reads a private key from the environment, as PKCS #8, with the algorithm its curve signs with', () => {
      const config = parse(
        { grant: 'client_credentials', clientId: 'job', privateKey: '${JOB_KEY}' },
        { JOB_KEY: ecPem },
      );
      const oauth = (config.servers[0] as RemoteServerConfig).oauth as RemoteOAuthSettings;
      expect(oauth).toMatchObject({ grant: 'client_credentials', clientId: 'job', signingAlgorithm: 'ES384' });
      expect(oauth.privateKey).toContain('-----BEGIN PRIVATE KEY-----');
      expect(config.secrets).toEqual(expect.arrayContaining([ecPem, oauth.privateKey]));
      const rsa = remote(
        { grant: 'client_credentials', clientId: 'job', privateKey: '${JOB_KEY}', signingAlgorithm: 'PS256' },
        { JOB_KEY: rsaPem },
      );
      expect(rsa.oauth).toMatchObject({ signingAlgorithm: 'PS256' });
    });

    it('refuses a credential written into the file, without repeating it', () => {
      const secret = failure({ grant: 'client_credentials', clientId: 'job', clientSecret: 'written-down' });
      expect(secret.keyPath).toBe('mcpServers.remote.oauth.clientSecret');
      expect(secret.message).toMatch(/expected a reference to an environment variable such as `\$\{env:/);
      expect(secret.message).not.toContain('written-down');
      expect(failure({ grant: 'client_credentials', clientId: 'job', privateKey: ecPem }).keyPath).toBe(
        'mcpServers.remote.oauth.privateKey',
      );
    });

    it('names the missing or conflicting setting', () => {
      expect(failure({ grant: 'client_credentials', clientSecret: '${env:S}' }, { S: 'x' }).message).toMatch(
        /oauth\.clientId: expected the client ID registered for `client_credentials`, found nothing/,
      );
      expect(failure({ grant: 'client_credentials', clientId: 'job' }).message).toMatch(
        /mcpServers\.remote\.oauth: expected either `clientSecret` or `privateKey` .*, found neither/,
      );
      const both = { grant: 'client_credentials', clientId: 'job', clientSecret: '${S}', privateKey: '${K}' };
      expect(failure(both, { S: 'x', K: ecPem }).found).toBe('both');
      expect(
        failure({ grant: 'client_credentials', clientId: 'job', clientSecret: '${S}', redirectPort: 8976 }, { S: 'x' })
          .message,
      ).toMatch(
        /oauth\.redirectPort: expected no `redirectPort`: it is only used with `"grant": "authorization_code"`/,
      );
      expect(failure({ clientId: 'job', privateKey: '${K}' }, { K: ecPem }).keyPath).toBe(
        'mcpServers.remote.oauth.privateKey',
      );
      expect(failure({ grant: 'password' }).message).toMatch(
        /oauth\.grant: expected "authorization_code" \(a person authorizes in the browser\), "client_credentials" \(unattended\) or "cross_app_access"/,
      );
    });

    it('checks the key when the config loads: not a key, or an algorithm the key cannot sign with', () => {
      const garbage = failure({ grant: 'client_credentials', clientId: 'job', privateKey: '${K}' }, { K: 'not a key' });
      expect(garbage.keyPath).toBe('mcpServers.remote.oauth.privateKey');
      expect(garbage.found).toBe('text that is not a private key');
      const mismatch = failure(
        { grant: 'client_credentials', clientId: 'job', privateKey: '${K}', signingAlgorithm: 'RS256' },
        { K: ecPem },
      );
      expect(mismatch.keyPath).toBe('mcpServers.remote.oauth.signingAlgorithm');
      expect(mismatch.expected).toBe('an algorithm this key can sign with: ES384');
    });
  });

  describe('grant cross_app_access', () => {
    const idp = {
      tokenEndpoint: 'https://idp.example.test/token',
      clientId: 'host-at-idp',
      idToken: '${env:ID_TOKEN}',
    };
    const xaa = (identityProvider: unknown = idp) => ({
      grant: 'cross_app_access',
      clientId: 'host-at-notes',
      clientSecret: '${env:NOTES_SECRET}',
      identityProvider,
    });
    const env = { ID_TOKEN: 'eyJ.id-token.value', NOTES_SECRET: 'notes-secret-value', IDP_SECRET: 'idp-secret-value' };

    it('reads the identity provider, takes the ID token and both secrets from the environment and keeps them secret', () => {
      const config = parse(xaa({ ...idp, clientSecret: '${env:IDP_SECRET}' }), env);
      expect((config.servers[0] as RemoteServerConfig).oauth).toEqual({
        grant: 'cross_app_access',
        clientId: 'host-at-notes',
        clientSecret: 'notes-secret-value',
        identityProvider: {
          tokenEndpoint: 'https://idp.example.test/token',
          clientId: 'host-at-idp',
          clientSecret: 'idp-secret-value',
          idToken: 'eyJ.id-token.value',
        },
      });
      expect(config.secrets).toEqual(
        expect.arrayContaining(['eyJ.id-token.value', 'notes-secret-value', 'idp-secret-value']),
      );
    });

    it('takes an issuer instead of a token endpoint, and an ID token file relative to the config file', () => {
      const oauth = remote(
        xaa({ issuer: 'http://127.0.0.1:9000', clientId: 'host-at-idp', idTokenFile: 'secrets/id-token' }),
        env,
      ).oauth as RemoteOAuthSettings;
      expect(oauth.identityProvider).toEqual({
        issuer: 'http://127.0.0.1:9000',
        clientId: 'host-at-idp',
        idTokenFile: path.join(path.dirname(FILE), 'secrets', 'id-token'),
      });
    });

    it('refuses an ID token or a secret written into the file, without repeating it', () => {
      const token = failure(xaa({ ...idp, idToken: 'eyJ.written-down' }), env);
      expect(token.keyPath).toBe('mcpServers.remote.oauth.identityProvider.idToken');
      expect(token.message).toMatch(/expected a reference to an environment variable such as `\$\{env:IDP_ID_TOKEN\}`/);
      expect(token.message).not.toContain('written-down');
      expect(failure(xaa({ ...idp, clientSecret: 'idp-written' }), env).keyPath).toBe(
        'mcpServers.remote.oauth.identityProvider.clientSecret',
      );
      expect(failure({ ...xaa(), clientSecret: 'notes-written' }, env).keyPath).toBe(
        'mcpServers.remote.oauth.clientSecret',
      );
    });

    it('names the missing, conflicting or insecure setting', () => {
      expect(failure({ grant: 'cross_app_access', clientId: 'host-at-notes' }, env).message).toMatch(
        /mcpServers\.remote\.oauth\.identityProvider: expected the identity provider the ID token is exchanged at/,
      );
      expect(failure({ ...xaa(), clientId: undefined }, env).message).toMatch(
        /oauth\.clientId: expected the client ID registered for `cross_app_access`, found nothing/,
      );
      const neither = failure(xaa({ clientId: 'host-at-idp', idToken: '${env:ID_TOKEN}' }), env);
      expect(neither.keyPath).toBe('mcpServers.remote.oauth.identityProvider');
      expect(neither.message).toMatch(/expected either `issuer` .* or `tokenEndpoint`, found neither/);
      expect(failure(xaa({ ...idp, idTokenFile: 'token' }), env).found).toBe('both');
      expect(failure(xaa({ ...idp, clientId: undefined }), env).keyPath).toBe(
        'mcpServers.remote.oauth.identityProvider.clientId',
      );
      const insecure = failure(xaa({ ...idp, tokenEndpoint: 'http://idp.example.test/token' }), env);
      expect(insecure.keyPath).toBe('mcpServers.remote.oauth.identityProvider.tokenEndpoint');
      expect(insecure.expected).toBe('an https URL (http only on 127.0.0.1, localhost or [::1])');
      expect(failure(xaa('https://idp.example.test'), env).message).toMatch(
        /oauth\.identityProvider: expected an object with `issuer` or `tokenEndpoint`/,
      );
      expect(failure({ clientId: 'a', identityProvider: idp }, env).message).toMatch(
        /oauth\.identityProvider: expected no `identityProvider`: it is only used with `"grant": "cross_app_access"`/,
      );
      expect(failure({ ...xaa(), redirectPort: 8976 }, env).keyPath).toBe('mcpServers.remote.oauth.redirectPort');
    });

    it('warns about keys it does not use inside identityProvider', () => {
      expect(parse(xaa({ ...idp, audience: 'x' }), env).warnings).toEqual([
        `${FILE}: mcpServers.remote.oauth.identityProvider.audience: not an OAuth setting mcp-host uses; ignored`,
      ]);
    });
  });
});
