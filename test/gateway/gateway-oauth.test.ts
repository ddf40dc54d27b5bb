/**
 * `mcp-host serve --http` in OAuth resource-server mode: JWT access tokens from a local authorization server
 * (its keys found through its RFC 8414 metadata), checked for signature, issuer, audience, time and scope; the
 * protected-resource metadata (RFC 9728) served; and the v2 SDK client getting a token by itself through the
 * 401's `resource_metadata` (client_credentials), its identity recorded in the audit.
 */
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/authorization-server.js';
import { trustedCalculatorConfig } from '../helpers/calculator-config.js';
import { type GatewayProcess, startGatewayProcess } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';

let authorization: AuthorizationServer;
let gateway: GatewayProcess;
let stateDir: string;
const clients: Client[] = [];

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

beforeAll(async () => {
  authorization = await startAuthorizationServer({ 'ci-bot': 'a-client-secret' });
  stateDir = await temporaryDirectory('mcp-host-gateway-oauth-');
  const config = await trustedCalculatorConfig({
    gateway: { oauth: { issuer: authorization.issuer, requiredScopes: ['mcp:tools'] } },
    profiles: { maths: { servers: ['calculator'] } },
  });
  gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir]);
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
  await authorization?.close();
});

async function post(token: string | undefined, path = ''): Promise<Response> {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { ...headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: initialize,
  });
}

describe('mcp-host serve with gateway.oauth', () => {
  it('serves the protected-resource metadata at the root and path-suffixed well-known URLs', async () => {
    const origin = new URL(gateway.url).origin;
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', gateway.url],
      ['/.well-known/oauth-protected-resource/mcp', gateway.url],
      ['/.well-known/oauth-protected-resource/mcp/maths', `${gateway.url}/maths`],
    ] as const) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource,
        authorization_servers: [authorization.issuer],
        scopes_supported: ['mcp:tools'],
        bearer_methods_supported: ['header'],
      });
    }
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/elsewhere`)).status).toBe(404);
  });

  it('answers 401 with resource_metadata without a token, and refuses bad tokens with the reason', async () => {
    const missing = await post(undefined);
    expect(missing.status).toBe(401);
    const origin = new URL(gateway.url).origin;
    expect(missing.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
    const profile = await post(undefined, '/maths');
    expect(profile.headers.get('www-authenticate')).toContain('oauth-protected-resource/mcp/maths"');

    const good = { sub: 'alice', aud: gateway.url, scope: 'mcp:tools' };
    const cases: Array<[string, Promise<string>, number, string]> = [
      ['expired', authorization.sign(good, { expiresIn: Math.floor(Date.now() / 1000) - 600 }), 401, 'expired'],
      [
        'not yet valid',
        authorization.sign(good, { notBefore: Math.floor(Date.now() / 1000) + 3600 }),
        401,
        'not valid yet',
      ],
      ['wrong issuer', authorization.sign({ ...good, iss: 'https://other.example' }), 401, 'issuer'],
      ['wrong audience', authorization.sign({ ...good, aud: 'https://other.example/mcp' }), 401, 'audience'],
      ['bad signature', authorization.sign(good, { forged: true }), 401, 'signature'],
      ['missing scope', authorization.sign({ ...good, scope: 'profile' }), 403, 'lacks the scope(s) mcp:tools'],
      ['not a JWT', Promise.resolve('just-some-opaque-token'), 401, 'neither'],
    ];
    for (const [name, token, status, reason] of cases) {
      const response = await post(await token);
      expect({ name, status: response.status }).toEqual({ name, status });
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain(status === 403 ? 'error="insufficient_scope"' : 'error="invalid_token"');
      expect(challenge).toContain('resource_metadata=');
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(reason);
    }

    // A token for the gateway opens its profiles too; a profile's own resource URL is accepted there.
    expect((await post(await authorization.sign(good), '/maths')).status).toBe(200);
    expect((await post(await authorization.sign({ ...good, aud: `${gateway.url}/maths` }), '/maths')).status).toBe(200);
    expect((await post(await authorization.sign({ ...good, aud: `${gateway.url}/maths` }))).status).toBe(401);
  });

  it('lets the v2 SDK client get a token through the metadata and records its identity in the audit', async () => {
    const client = new Client({ name: 'oauth-test-client', version: '2.0.0' });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(gateway.url), {
      authProvider: new ClientCredentialsProvider({
        clientId: 'ci-bot',
        clientSecret: 'a-client-secret',
        scope: 'mcp:tools',
        expectedIssuer: authorization.issuer,
      }),
    });
    await client.connect(transport);
    expect(authorization.issued).toEqual([{ clientId: 'ci-bot', resource: gateway.url, scope: 'mcp:tools' }]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('calculator__add_numbers');
    const result = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 40, b: 2 } });
    expect(JSON.stringify(result.content)).toContain('42');
    await client.close();

    const records = await auditRecords(stateDir);
    expect(records.find((record) => record.type === 'tool-call')).toMatchObject({
      tool: 'calculator__add_numbers',
      client: { name: 'oauth-test-client', principal: 'ci-bot', clientId: 'ci-bot' },
    });
  });
});
