// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax under test, not a template mistake.
/**
 * Enterprise-managed authorization (cross-app access, SEP-990) end to end: the host's connection layer, and the
 * CLI, against a protected MCP server, its authorization server and an enterprise identity provider, all on
 * 127.0.0.1. The person's ID token is exchanged at the identity provider for an ID-JAG, the ID-JAG at the
 * authorization server for an access token; no browser, and no token in anything the host prints.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteOAuthSettings, RemoteServerConfig } from '../../src/config/types.js';
import { createTransport } from '../../src/connections/create-transport.js';
import { OAuthStore } from '../../src/connections/oauth/oauth-store.js';
import { createRemoteAuthorization } from '../../src/connections/oauth/remote-authorization.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { type FakeIdentityProvider, startFakeIdentityProvider } from './fake-identity-provider.js';
import { type FakeOAuthServers, startFakeOAuthServers } from './fake-oauth-servers.js';

const NOTES_CLIENT = { clientId: 'mcp-host-notes', clientSecret: 'notes-secret-value' };
const IDP_CLIENT = { clientId: 'mcp-host-at-idp', clientSecret: 'idp-secret-value' };

let idp: FakeIdentityProvider;
let servers: FakeOAuthServers;
beforeAll(async () => {
  idp = await startFakeIdentityProvider({ ...IDP_CLIENT, idJagClientId: NOTES_CLIENT.clientId });
  servers = await startFakeOAuthServers({
    registration: false,
    crossAppAccess: { ...NOTES_CLIENT, idpIssuer: idp.issuer, idJagKey: idp.idJagKey },
  });
});
afterAll(async () => {
  await Promise.all([servers?.close(), idp?.close()]);
});

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

function settings(identityProvider: Partial<RemoteOAuthSettings['identityProvider']>): RemoteOAuthSettings {
  return {
    grant: 'cross_app_access',
    ...NOTES_CLIENT,
    identityProvider: { tokenEndpoint: idp.tokenEndpoint, ...IDP_CLIENT, ...identityProvider },
  };
}

/** Connects the way a host does, with a browser that fails the test if anything opens it. */
async function connect(oauth: RemoteOAuthSettings, stateDirectory: string) {
  const diagnostics: string[] = [];
  const authorization = createRemoteAuthorization({
    stateDirectory,
    openUrl: async (url) => expect.fail(`no browser for cross-app access, but asked to open ${url}`),
    onAuthorizationRequired: (request) => diagnostics.push(`authorization required: ${request.url}`),
    authorizationTimeoutMs: 10_000,
  });
  const config: RemoteServerConfig = {
    name: 'notes',
    transport: 'http',
    url: servers.mcpUrl,
    headers: {},
    trust: 'untrusted',
    timeoutMs: 10_000,
    disabled: false,
    versionNegotiation: 'legacy',
    oauth,
  };
  const connection = await createTransport(config, {
    connectTimeoutMs: 10_000,
    clientInfo: { name: 'xaa-test', version: '1.0.0' },
    onDiagnostic: (message) => diagnostics.push(message),
    onToolsChanged: () => undefined,
    authorization,
  });
  clients.push(connection.client);
  return { client: connection.client, diagnostics };
}

/** Requests of one grant type to the authorization server's token endpoint, from index `from` on. */
function tokenRequests(grantType: string, from = 0) {
  return servers
    .requestsTo('/token')
    .slice(from)
    .filter((request) => request.body.grant_type === grantType);
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

describe('cross-app access (enterprise-managed authorization)', () => {
  it('exchanges the ID token for an ID-JAG at the identity provider, and that for a token; nothing printed', async () => {
    const idToken = await idp.idToken('alice');
    const stateDirectory = await temporaryDirectory('mcp-host-xaa-');
    const exchangesBefore = idp.exchanges.length;
    const tokensBefore = servers.requestsTo('/token').length;
    const { client, diagnostics } = await connect(settings({ idToken }), stateDirectory);
    expect(await client.callTool({ name: 'read_notes', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'no notes yet' }],
    });

    const [exchange, ...moreExchanges] = idp.exchanges.slice(exchangesBefore);
    expect(moreExchanges).toEqual([]);
    expect(exchange).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      subject_token: idToken,
      audience: servers.authUrl,
      resource: servers.mcpUrl,
      client_id: IDP_CLIENT.clientId,
      client_secret: IDP_CLIENT.clientSecret,
    });
    const [grant, ...moreGrants] = tokenRequests(JWT_BEARER, tokensBefore);
    expect(moreGrants).toEqual([]);
    expect(grant?.body).toEqual({ grant_type: JWT_BEARER, assertion: idp.issued.at(-1), resource: servers.mcpUrl });
    expect(grant?.authorization).toBe(
      `Basic ${Buffer.from(`${NOTES_CLIENT.clientId}:${NOTES_CLIENT.clientSecret}`).toString('base64')}`,
    );
    // The ID token goes to the identity provider only, never to the server or its authorization server.
    expect(JSON.stringify(servers.requests)).not.toContain(idToken);

    // The access token is kept for the next run; the ID token and the ID-JAG are not kept anywhere.
    const store = new OAuthStore(stateDirectory, 'notes', servers.mcpUrl);
    const stored = await readFile(store.file, 'utf8');
    expect(store.get().tokens?.access_token).toMatch(/^token-/);
    for (const secret of [idToken, idp.issued.at(-1) ?? '', NOTES_CLIENT.clientSecret, IDP_CLIENT.clientSecret]) {
      expect(stored).not.toContain(secret);
    }
    const printed = diagnostics.join('\n');
    for (const secret of [idToken, idp.issued.at(-1) ?? '', store.get().tokens?.access_token ?? '']) {
      expect(printed).not.toContain(secret);
    }

    const later = await connect(settings({ idToken }), stateDirectory);
    await later.client.listTools();
    expect(idp.exchanges.length).toBe(exchangesBefore + 1);
  });

  it('reads the ID token from its file at each exchange, the token endpoint discovered from the issuer', async () => {
    const folder = await temporaryDirectory('mcp-host-xaa-token-');
    const idTokenFile = join(folder, 'id-token');
    const first = await idp.idToken('bob');
    await writeFile(idTokenFile, `${first}\n`);
    const stateDirectory = await temporaryDirectory('mcp-host-xaa-');
    const oauth = settings({ tokenEndpoint: undefined, issuer: idp.issuer, idTokenFile });
    const exchangesBefore = idp.exchanges.length;
    await (await connect(oauth, stateDirectory)).client.listTools();
    expect(idp.exchanges.slice(exchangesBefore).map((body) => body.subject_token)).toEqual([first]);

    // A sign-in tool replaced the token; the stored access token is gone (expired): the new ID token is used.
    const second = await idp.idToken('bob');
    await writeFile(idTokenFile, second);
    new OAuthStore(stateDirectory, 'notes', servers.mcpUrl).update({ tokens: undefined });
    await (await connect(oauth, stateDirectory)).client.listTools();
    expect(idp.exchanges.slice(exchangesBefore).map((body) => body.subject_token)).toEqual([first, second]);
  });

  it('says which server and identity provider refused an ID token, without the token, and goes no further', async () => {
    const forged = await idp.idToken('mallory', {
      signer: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    });
    const expired = await idp.idToken('carol', { expiresInSeconds: -600 });
    for (const [idToken, code] of [
      [forged, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
      [expired, 'ERR_JWT_EXPIRED'],
    ] as const) {
      const tokensBefore = servers.requestsTo('/token').length;
      const failure = await connect(settings({ idToken }), await temporaryDirectory('mcp-host-xaa-')).then(
        () => expect.fail('connected with an ID token the identity provider refused'),
        (error: unknown) => error as Error,
      );
      const message = failure.message;
      expect(message).toContain(
        `server "notes": the identity provider ${idp.tokenEndpoint} (oauth.identityProvider) did not exchange the ID token for an ID-JAG: Token exchange failed: invalid_grant - ID token rejected (${code})`,
      );
      expect(message).not.toContain(idToken);
      expect(tokenRequests(JWT_BEARER, tokensBefore)).toEqual([]);
    }
  });

  it('names the ID token file it cannot read, and asks the identity provider nothing', async () => {
    const missing = join(await temporaryDirectory('mcp-host-xaa-token-'), 'id-token');
    const exchangesBefore = idp.exchanges.length;
    await expect(
      connect(settings({ idTokenFile: missing }), await temporaryDirectory('mcp-host-xaa-')),
    ).rejects.toThrow(`server "notes": oauth.identityProvider.idTokenFile: cannot read ${missing} (ENOENT)`);
    expect(idp.exchanges.length).toBe(exchangesBefore);
  });

  it('the CLI reaches the server from a config with the ID token in the environment, printing no token', async () => {
    const idToken = await idp.idToken('dave');
    const config = await writeConfig({
      mcpServers: {
        notes: {
          type: 'http',
          url: servers.mcpUrl,
          oauth: {
            grant: 'cross_app_access',
            clientId: NOTES_CLIENT.clientId,
            clientSecret: '${env:NOTES_SECRET}',
            identityProvider: {
              issuer: idp.issuer,
              clientId: IDP_CLIENT.clientId,
              clientSecret: '${env:IDP_SECRET}',
              idToken: '${env:IDP_ID_TOKEN}',
            },
          },
        },
      },
    });
    const env = {
      NOTES_SECRET: NOTES_CLIENT.clientSecret,
      IDP_SECRET: IDP_CLIENT.clientSecret,
      IDP_ID_TOKEN: idToken,
    };
    const issuedBefore = idp.issued.length;
    const listed = await runCli(['trust', '--json', '--config', config], { env, timeoutMs: 60_000 });
    expect(listed.code, listed.stderr).toBe(0);
    const [notes] = JSON.parse(listed.stdout) as Array<{ error?: string; tools: Array<{ name: string }> }>;
    expect(notes?.error).toBeUndefined();
    expect(notes?.tools.map((tool) => tool.name).sort()).toEqual(['read_notes', 'write_note']);
    const idJag = idp.issued[issuedBefore];
    expect(idJag).toBeDefined();
    const output = listed.stdout + listed.stderr;
    for (const secret of [idToken, idJag ?? '', NOTES_CLIENT.clientSecret, IDP_CLIENT.clientSecret]) {
      expect(output).not.toContain(secret);
    }

    // An expired ID token: the CLI says what was refused and where, and still prints no token.
    const expired = await idp.idToken('dave', { expiresInSeconds: -600 });
    const refused = await runCli(['trust', '--json', '--config', config], {
      env: { ...env, IDP_ID_TOKEN: expired },
      timeoutMs: 60_000,
    });
    const refusedOutput = refused.stdout + refused.stderr;
    expect(refusedOutput).toContain('(oauth.identityProvider) did not exchange the ID token for an ID-JAG');
    expect(refusedOutput).toContain('ID token rejected (ERR_JWT_EXPIRED)');
    expect(refusedOutput).not.toContain(expired);
  });
});

describe("credentials read from files are redacted like the config's secrets", () => {
  let carelessIdp: FakeIdentityProvider;
  let carelessServers: FakeOAuthServers;
  beforeAll(async () => {
    carelessIdp = await startFakeIdentityProvider({
      ...IDP_CLIENT,
      idJagClientId: NOTES_CLIENT.clientId,
      echoRefusedToken: true,
    });
    carelessServers = await startFakeOAuthServers({
      registration: false,
      crossAppAccess: { ...NOTES_CLIENT, idpIssuer: carelessIdp.issuer, idJagKey: carelessIdp.idJagKey },
      echoBearer: true,
    });
  });
  afterAll(async () => {
    await Promise.all([carelessServers?.close(), carelessIdp?.close()]);
  });

  async function configWithIdTokenFile(directory: string, idTokenFile: string): Promise<string> {
    const config = join(directory, 'mcp-host.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          notes: {
            type: 'http',
            url: carelessServers.mcpUrl,
            oauth: {
              grant: 'cross_app_access',
              clientId: NOTES_CLIENT.clientId,
              clientSecret: '${env:NOTES_SECRET}',
              identityProvider: {
                tokenEndpoint: carelessIdp.tokenEndpoint,
                clientId: IDP_CLIENT.clientId,
                clientSecret: '${env:IDP_SECRET}',
                idTokenFile,
              },
            },
          },
        },
      }),
    );
    return config;
  }
  const env = { NOTES_SECRET: NOTES_CLIENT.clientSecret, IDP_SECRET: IDP_CLIENT.clientSecret };

  it('an identity provider quoting the refused ID token from idTokenFile: the CLI shows [redacted]', async () => {
    const directory = await temporaryDirectory('mcp-host-xaa-echo-');
    const idTokenFile = join(directory, 'id-token');
    const expired = await carelessIdp.idToken('erin', { expiresInSeconds: -600 });
    await writeFile(idTokenFile, `${expired}\n`);
    const config = await configWithIdTokenFile(directory, idTokenFile);
    const listed = await runCliInProcess(['trust', '--json', '--config', config], {
      cwd: directory,
      stateDir: join(directory, 'state'),
      env,
    });
    const output = listed.stdout + listed.stderr;
    // The provider did quote it: the exchange reached it and its refusal is shown, with the token replaced.
    expect(carelessIdp.exchanges.at(-1)?.subject_token).toBe(expired);
    expect(output).toContain('ID token rejected (ERR_JWT_EXPIRED): [redacted]');
    expect(output).not.toContain(expired);
  });

  it("a server echoing its bearer token: the trace and the audit log hold none of the run's credentials", async () => {
    const directory = await temporaryDirectory('mcp-host-xaa-echo-');
    const stateDir = join(directory, 'state');
    const idTokenFile = join(directory, 'id-token');
    const idToken = await carelessIdp.idToken('frank');
    await writeFile(idTokenFile, idToken);
    const config = await configWithIdTokenFile(directory, idTokenFile);
    const script = join(directory, 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        scenarios: [{ turns: [{ toolCalls: [{ id: 'w1', name: 'notes__whoami' }] }, { text: 'done' }] }],
      }),
    );
    const issuedBefore = carelessIdp.issued.length;
    const result = await runCliInProcess(
      ['run', '--yes', '--trace', '--config', config, '--model', `scripted:${script}`, 'who am I'],
      { cwd: directory, stateDir, env, timeoutMs: 60_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const accessToken = new OAuthStore(stateDir, 'notes', carelessServers.mcpUrl).get().tokens?.access_token;
    expect(accessToken).toMatch(/^token-/);
    const idJag = carelessIdp.issued[issuedBefore];
    expect(idJag).toBeDefined();
    // The server did echo it; the trace shows the result with the token replaced.
    expect(result.stderr).toContain('you are Bearer [redacted]');
    const audit = await readFile(join(stateDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"tool":"notes__whoami"');
    for (const secret of [accessToken ?? '', idToken, idJag ?? '']) {
      expect(result.stderr).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
  });
});
