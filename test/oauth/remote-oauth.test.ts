/**
 * OAuth for remote servers end to end: the host's connection layer against a protected MCP server and a fake
 * authorization server on 127.0.0.1, with a stand-in browser that follows the authorization redirect.
 */
import { generateKeyPairSync } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client, Transport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteOAuthSettings, RemoteServerConfig } from '../../src/config/types.js';
import { createTransport } from '../../src/connections/create-transport.js';
import type { AuthorizationRequest, AuthorizationSession } from '../../src/connections/oauth/authorization-session.js';
import { OAUTH_FOLDER_NAME, OAuthStore, oauthFileName } from '../../src/connections/oauth/oauth-store.js';
import {
  createRemoteAuthorization,
  type RemoteAuthorization,
  type RemoteAuthorizationOptions,
} from '../../src/connections/oauth/remote-authorization.js';
import { httpServer } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import { type FakeOAuthOptions, type FakeOAuthServers, startFakeOAuthServers } from './fake-oauth-servers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function fakeServers(options: FakeOAuthOptions = {}): Promise<FakeOAuthServers> {
  const servers = await startFakeOAuthServers(options);
  cleanups.push(() => servers.close());
  return servers;
}

/** The notes server's entry; without `oauth`, the host's OAuth defaults apply. */
function remoteConfig(url: string, oauth?: RemoteOAuthSettings | false): RemoteServerConfig {
  return httpServer('notes', url, { oauth });
}

/** A browser that goes where the authorization server sends it, without a person clicking anything. */
async function followInBrowser(url: string): Promise<void> {
  const response = await fetch(url);
  await response.text();
}

interface Harness {
  stateDirectory: string;
  shown: AuthorizationRequest[];
  /** How many authorizations the host was asked to start, over all its servers' sessions. */
  authorizationsAsked(): number;
  connect(config: RemoteServerConfig): Promise<{ client: Client; transport: Transport }>;
}

async function harness(overrides: Partial<RemoteAuthorizationOptions> = {}, stateDirectory?: string): Promise<Harness> {
  const directory = stateDirectory ?? (await temporaryDirectory('mcp-host-oauth-'));
  const shown: AuthorizationRequest[] = [];
  const sessions: AuthorizationSession[] = [];
  const created = createRemoteAuthorization({
    stateDirectory: directory,
    openUrl: followInBrowser,
    authorizationTimeoutMs: 10_000,
    ...overrides,
    onAuthorizationRequired: (request) => {
      shown.push(request);
      overrides.onAuthorizationRequired?.(request);
    },
  });
  const authorization: RemoteAuthorization = {
    async forServer(config) {
      const session = await created.forServer(config);
      if (session !== undefined) sessions.push(session);
      return session;
    },
  };
  return {
    stateDirectory: directory,
    shown,
    authorizationsAsked: () => sessions.reduce((asked, session) => asked + session.generation, 0),
    async connect(config) {
      const connection = await createTransport(config, {
        connectTimeoutMs: 10_000,
        clientInfo: { name: 'oauth-test', version: '1.0.0' },
        onDiagnostic: () => undefined,
        onToolsChanged: () => undefined,
        authorization,
      });
      cleanups.push(() => connection.client.close());
      return connection;
    },
  };
}

describe('OAuth for a remote server', () => {
  it('authorizes with PKCE S256, dynamic registration and the resource parameter, and keeps the tokens owner-only', async () => {
    const servers = await fakeServers();
    const host = await harness();
    const { client } = await host.connect(remoteConfig(servers.mcpUrl));

    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['read_notes', 'write_note']);
    expect(servers.requestsTo('/register')).toHaveLength(1);
    const [authorize] = servers.requestsTo('/authorize');
    expect(authorize?.query.code_challenge_method).toBe('S256');
    expect(authorize?.query.resource).toBe(servers.mcpUrl);
    expect(authorize?.query.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorize?.query.state).toMatch(/^[\w-]{20,}$/);
    const [token] = servers.requestsTo('/token');
    expect(token?.body.resource).toBe(servers.mcpUrl);
    expect(token?.body.code_verifier).toMatch(/^[\w.~-]{43,128}$/);
    expect(host.shown).toEqual([{ server: 'notes', url: expect.stringContaining('/authorize?'), opened: true }]);

    const folder = join(host.stateDirectory, OAUTH_FOLDER_NAME);
    const file = join(folder, oauthFileName('notes', servers.mcpUrl));
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    // A later run with the same state folder uses the stored token: no registration, no browser.
    const later = await harness({}, host.stateDirectory);
    const again = await later.connect(remoteConfig(servers.mcpUrl));
    await again.client.listTools();
    expect(servers.requestsTo('/register')).toHaveLength(1);
    expect(servers.requestsTo('/authorize')).toHaveLength(1);
    expect(later.shown).toEqual([]);
  });

  it('shows the URL for the user to open when no browser can be opened', async () => {
    const servers = await fakeServers();
    const host = await harness({
      openUrl: undefined,
      // The person at the terminal copies the URL into a browser somewhere.
      onAuthorizationRequired: (request) => void followInBrowser(request.url),
    });
    const { client } = await host.connect(remoteConfig(servers.mcpUrl));
    await client.listTools();
    expect(host.shown).toEqual([{ server: 'notes', url: expect.stringContaining(servers.authUrl), opened: false }]);
  });

  it('refuses an authorization server whose metadata lacks code_challenge_methods_supported', async () => {
    const servers = await fakeServers({ codeChallengeMethods: null });
    const host = await harness();
    await expect(host.connect(remoteConfig(servers.mcpUrl))).rejects.toThrow(
      /does not list code_challenge_methods_supported.*refusing to authorize/,
    );
    expect(servers.requestsTo('/register')).toHaveLength(0);
    expect(servers.requestsTo('/authorize')).toHaveLength(0);
    expect(host.shown).toEqual([]);
  });

  it('refuses an authorization server without S256, and one that publishes no metadata', async () => {
    const plainOnly = await fakeServers({ codeChallengeMethods: ['plain'] });
    await expect((await harness()).connect(remoteConfig(plainOnly.mcpUrl))).rejects.toThrow(
      /does not support PKCE with S256 \(it lists plain\)/,
    );
    const noMetadata = await fakeServers({ noMetadata: true });
    await expect((await harness()).connect(remoteConfig(noMetadata.mcpUrl))).rejects.toThrow(
      /publishes no authorization server metadata/,
    );
    expect(noMetadata.requestsTo('/authorize')).toHaveLength(0);
  });

  it('never fetches metadata from 169.254.169.254, named in the challenge or as the authorization server', async () => {
    const fetched: string[] = [];
    const recordingFetch = (url: string | URL, init?: RequestInit) => {
      fetched.push(String(url));
      return fetch(url, init);
    };
    const inChallenge = await fakeServers({ resourceMetadataUrl: 'http://169.254.169.254/latest/meta-data/iam' });
    await expect((await harness({ fetch: recordingFetch })).connect(remoteConfig(inChallenge.mcpUrl))).rejects.toThrow(
      /refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam: .*metadata service/,
    );

    const asAuthorizationServer = await fakeServers({ authorizationServers: ['http://169.254.169.254/'] });
    await expect(
      (await harness({ fetch: recordingFetch })).connect(remoteConfig(asAuthorizationServer.mcpUrl)),
    ).rejects.toThrow(/refused to fetch http:\/\/169\.254\.169\.254\/.*metadata service/);
    expect(fetched.filter((url) => url.includes('169.254'))).toEqual([]);
    expect(fetched.length).toBeGreaterThan(0);
  });

  it('refuses a server whose resource metadata names another resource', async () => {
    const servers = await fakeServers({ resource: 'https://evil.example.test/mcp' });
    await expect((await harness()).connect(remoteConfig(servers.mcpUrl))).rejects.toThrow(
      /claims to be the protected resource https:\/\/evil\.example\.test\/mcp, which is not http:\/\/127\.0\.0\.1:\d+\/mcp; refusing/,
    );
    expect(servers.requestsTo('/authorize')).toHaveLength(0);
  });

  it('uses a pre-registered client without registering, authenticating with its secret', async () => {
    const servers = await fakeServers({
      registration: false,
      preRegistered: { clientId: 'host-client', clientSecret: 'host-secret' },
    });
    const host = await harness();
    const { client } = await host.connect(
      remoteConfig(servers.mcpUrl, { clientId: 'host-client', clientSecret: 'host-secret' }),
    );
    await client.listTools();
    expect(servers.requestsTo('/register')).toHaveLength(0);
    expect(servers.requestsTo('/authorize')[0]?.query.client_id).toBe('host-client');
    const expected = `Basic ${Buffer.from('host-client:host-secret').toString('base64')}`;
    expect(servers.requestsTo('/token')[0]?.authorization).toBe(expected);
  });

  it("never sends a pre-registered client's secret to a second authorization server", async () => {
    const client = { clientId: 'host-client', clientSecret: 'host-secret' };
    const options: FakeOAuthOptions = { registration: false, preRegistered: client };
    const servers = await fakeServers(options);
    const host = await harness();
    await (await host.connect(remoteConfig(servers.mcpUrl, client))).client.listTools();

    // Later the server names another authorization server; the host forgets its token and discovers again.
    const other = await fakeServers({ registration: false, preRegistered: client });
    options.authorizationServers = [other.authUrl];
    new OAuthStore(host.stateDirectory, 'notes', servers.mcpUrl).update({
      tokens: undefined,
      discoveryState: undefined,
    });
    await expect(host.connect(remoteConfig(servers.mcpUrl, client))).rejects.toThrow(
      /now names the authorization server .* but its pre-registered client was used with .*refusing to send/,
    );
    expect(other.requestsTo('/authorize')).toHaveLength(0);
    expect(other.requestsTo('/token')).toHaveLength(0);
  });

  it('uses a client ID metadata document where the server supports it', async () => {
    const documentUrl = 'https://client.example.test/mcp-host/client.json';
    const servers = await fakeServers({ clientIdMetadataDocumentSupported: true });
    const host = await harness();
    const { client } = await host.connect(remoteConfig(servers.mcpUrl, { clientMetadataUrl: documentUrl }));
    await client.listTools();
    expect(servers.requestsTo('/register')).toHaveLength(0);
    expect(servers.requestsTo('/authorize')[0]?.query.client_id).toBe(documentUrl);
  });

  it('steps up: a call refused for insufficient scope is authorized again with the wider scope and sent once more', async () => {
    const servers = await fakeServers({ scopesSupported: ['notes:read'], writeScope: 'notes:write' });
    const host = await harness();
    const { client } = await host.connect(remoteConfig(servers.mcpUrl));
    expect(await client.callTool({ name: 'read_notes', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'no notes yet' }],
    });

    const result = await client.callTool({ name: 'write_note', arguments: { text: 'hello' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'saved: hello' }] });
    const scopes = servers.requestsTo('/authorize').map((request) => request.query.scope);
    expect(scopes).toEqual(['notes:read', 'notes:read notes:write']);
    const writeCalls = servers.requests.filter(
      (request) => request.server === 'mcp' && request.body.json?.includes('write_note'),
    );
    expect(writeCalls).toHaveLength(2);
  });

  it('sends the user to one authorization when parallel calls need the same step-up', async () => {
    const servers = await fakeServers({ scopesSupported: ['notes:read'], writeScope: 'notes:write' });
    const host = await harness({
      // The user gets to the browser only after both calls were refused and asked for authorization: once for
      // reading at connect, then once for writing by each call.
      openUrl: async (url) => {
        if (servers.requestsTo('/authorize').length > 0) {
          await waitUntil(() => host.authorizationsAsked() >= 3, 'both refused calls to ask for authorization');
        }
        await followInBrowser(url);
      },
    });
    const { client } = await host.connect(remoteConfig(servers.mcpUrl));
    const results = await Promise.all([
      client.callTool({ name: 'write_note', arguments: { text: 'one' } }),
      client.callTool({ name: 'write_note', arguments: { text: 'two' } }),
    ]);
    expect(results.map((result) => (result.content as Array<{ text: string }>)[0]?.text)).toEqual([
      'saved: one',
      'saved: two',
    ]);
    expect(servers.requestsTo('/authorize').map((request) => request.query.scope)).toEqual([
      'notes:read',
      'notes:read notes:write',
    ]);
    expect(host.shown).toHaveLength(2);
  });

  it('registers with the new authorization server when the resource metadata names another one', async () => {
    const options: FakeOAuthOptions = {};
    const servers = await fakeServers(options);
    const host = await harness();
    await (await host.connect(remoteConfig(servers.mcpUrl))).client.listTools();

    // The server moves to another authorization server; the host's token no longer counts.
    const other = await fakeServers();
    options.authorizationServers = [other.authUrl];
    new OAuthStore(host.stateDirectory, 'notes', servers.mcpUrl).update({ tokens: undefined });
    // The new server's tokens mean nothing to the old fake resource server, so this connect ends refused.
    await host.connect(remoteConfig(servers.mcpUrl)).catch(() => undefined);
    expect(other.requestsTo('/register').length).toBeGreaterThan(0);
    expect(other.requestsTo('/authorize').length).toBeGreaterThan(0);
    expect(servers.requestsTo('/register')).toHaveLength(1);
    expect(servers.requestsTo('/authorize')).toHaveLength(1);
  });

  it('authorizes a server laid out the 2025-03-26 way: metadata at its own root naming an issuer on its origin', async () => {
    const servers = await fakeServers({ legacyLayout: true });
    const host = await harness();
    const { client } = await host.connect(remoteConfig(servers.mcpUrl));
    await client.listTools();
    expect(servers.authUrl).toBe(`${new URL(servers.mcpUrl).origin}/oauth`);
    expect(servers.requestsTo('/register')).toHaveLength(1);
    expect(servers.requestsTo('/authorize')[0]?.query.code_challenge_method).toBe('S256');
    expect(servers.requestsTo('/token')).toHaveLength(1);
  });

  it('still refuses metadata at the root that names an issuer on another origin, or lacks PKCE', async () => {
    const elsewhere = await fakeServers({ legacyLayout: true, issuer: 'https://auth.example.test/oauth' });
    await expect((await harness()).connect(remoteConfig(elsewhere.mcpUrl))).rejects.toThrow(
      /Issuer mismatch in authorization server metadata .*received "https:\/\/auth\.example\.test\/oauth"/,
    );
    const noPkce = await fakeServers({ legacyLayout: true, codeChallengeMethods: null });
    await expect((await harness()).connect(remoteConfig(noPkce.mcpUrl))).rejects.toThrow(
      /does not list code_challenge_methods_supported/,
    );
    expect([...elsewhere.requestsTo('/register'), ...noPkce.requestsTo('/register')]).toEqual([]);
  });

  it('authorizes unattended with client_credentials and a secret: HTTP Basic, no browser, tokens kept', async () => {
    const servers = await fakeServers({
      registration: false,
      clientCredentials: { clientId: 'nightly-job', clientSecret: 'job-secret' },
    });
    const host = await harness({ openUrl: async () => expect.fail('no browser for client_credentials') });
    const settings: RemoteOAuthSettings = {
      grant: 'client_credentials',
      clientId: 'nightly-job',
      clientSecret: 'job-secret',
      scopes: ['notes:read'],
    };
    const { client } = await host.connect(remoteConfig(servers.mcpUrl, settings));
    expect(await client.callTool({ name: 'read_notes', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'no notes yet' }],
    });
    const [token] = servers.requestsTo('/token');
    expect(token?.body).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'notes:read',
      resource: servers.mcpUrl,
    });
    expect(token?.authorization).toBe(`Basic ${Buffer.from('nightly-job:job-secret').toString('base64')}`);
    expect(servers.requestsTo('/authorize')).toHaveLength(0);
    expect(servers.requestsTo('/register')).toHaveLength(0);
    expect(host.shown).toEqual([]);

    // The next run reuses the stored token.
    const later = await harness({}, host.stateDirectory);
    await (await later.connect(remoteConfig(servers.mcpUrl, settings))).client.listTools();
    expect(servers.requestsTo('/token')).toHaveLength(1);
  });

  it('authorizes unattended with client_credentials and a private key: a signed JWT assertion, no secret sent', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const servers = await fakeServers({
      registration: false,
      clientCredentials: { clientId: 'nightly-job', publicKey },
    });
    const host = await harness();
    const settings: RemoteOAuthSettings = {
      grant: 'client_credentials',
      clientId: 'nightly-job',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      signingAlgorithm: 'ES256',
    };
    const { client } = await host.connect(remoteConfig(servers.mcpUrl, settings));
    await client.listTools();
    const [token] = servers.requestsTo('/token');
    expect(token?.body.client_assertion_type).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(token?.authorization).toBeUndefined();

    // A key the authorization server does not know is refused, and the error says so.
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const other = await harness();
    await expect(
      other.connect(
        remoteConfig(servers.mcpUrl, {
          ...settings,
          privateKey: stranger.export({ type: 'pkcs8', format: 'pem' }).toString(),
        }),
      ),
    ).rejects.toThrow(/client assertion rejected: signature verification failed/);
  });

  it("never sends a client_credentials client's secret to a second authorization server", async () => {
    const clientCredentials = { clientId: 'nightly-job', clientSecret: 'job-secret' };
    const options: FakeOAuthOptions = { registration: false, clientCredentials };
    const servers = await fakeServers(options);
    const host = await harness();
    const settings: RemoteOAuthSettings = { grant: 'client_credentials', ...clientCredentials };
    await (await host.connect(remoteConfig(servers.mcpUrl, settings))).client.listTools();

    const other = await fakeServers({ registration: false, clientCredentials });
    options.authorizationServers = [other.authUrl];
    new OAuthStore(host.stateDirectory, 'notes', servers.mcpUrl).update({
      tokens: undefined,
      discoveryState: undefined,
    });
    await expect(host.connect(remoteConfig(servers.mcpUrl, settings))).rejects.toThrow(
      /now names the authorization server .* refusing to send the client's credentials elsewhere/,
    );
    expect(other.requestsTo('/token')).toHaveLength(0);
  });

  it('leaves a server alone when its config turns OAuth off', async () => {
    const servers = await fakeServers();
    const host = await harness();
    await expect(host.connect(remoteConfig(servers.mcpUrl, false))).rejects.toThrow(
      /failed to connect: .*invalid_token/,
    );
    expect(servers.requestsTo('/.well-known/oauth-authorization-server')).toHaveLength(0);
    expect(host.shown).toEqual([]);
  });
});
