/**
 * A protected MCP server and its authorization server, both on 127.0.0.1, for the OAuth tests. The authorization
 * server checks what a real one would (PKCE S256, client authentication, the redirect URI, the `resource`
 * parameter) and records every request, so tests can assert on what the host sent. Each behaviour the tests
 * need to vary is an option.
 */
import { createHash, type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { jwtVerify } from 'jose';
import { z } from 'zod';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The structured answer of `tagged_note`, as the server sends it. */
export const TAGGED_NOTE = '{"__proto__":{"tag":"kept"},"text":"a tagged note"}';

export interface FakeOAuthOptions {
  /** `null` leaves `code_challenge_methods_supported` out of the metadata. Default `['S256']`. */
  codeChallengeMethods?: string[] | null;
  /** Serve no authorization server metadata at all. */
  noMetadata?: boolean;
  /** Offer dynamic registration. Default true. */
  registration?: boolean;
  clientIdMetadataDocumentSupported?: boolean;
  /** A client known to the server beforehand. */
  preRegistered?: { clientId: string; clientSecret: string };
  /** `scopes_supported` in the protected resource metadata. */
  scopesSupported?: string[];
  /** Scope a `tools/call` of `write_note` needs; other requests need any valid token. */
  writeScope?: string;
  /** Replaces the protected resource metadata URL in the 401 challenge. */
  resourceMetadataUrl?: string;
  /** Replaces `authorization_servers` in the protected resource metadata. */
  authorizationServers?: string[];
  /** Replaces `resource` in the protected resource metadata. */
  resource?: string;
  /**
   * A client allowed the `client_credentials` grant, authenticating with its secret (HTTP Basic) or with a JWT
   * assertion signed by the private key that goes with `publicKey`.
   */
  clientCredentials?: { clientId: string; clientSecret?: string; publicKey?: KeyObject };
  /**
   * The 2025-03-26 layout: no protected resource metadata, and the authorization server served by the MCP server
   * itself under `/oauth`, its metadata at the origin's root naming the issuer `<origin>/oauth`.
   */
  legacyLayout?: boolean;
  /** Replaces `issuer` in the authorization server metadata. */
  issuer?: string;
  /**
   * A client allowed the JWT bearer grant of cross-app access: it authenticates with its secret (HTTP Basic) and
   * presents an ID-JAG for itself and the MCP server, issued for this authorization server by the identity provider
   * `idpIssuer` and signed with the key that goes with `idJagKey`.
   */
  crossAppAccess?: { clientId: string; clientSecret: string; idpIssuer: string; idJagKey: KeyObject };
  /** A careless server: its `whoami` tool answers with the bearer token the request carried. */
  echoBearer?: boolean;
  /** Offer `tagged_note`, whose structured answer holds a `__proto__` key (see TAGGED_NOTE). */
  taggedNote?: boolean;
}

export interface RecordedRequest {
  server: 'mcp' | 'auth';
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  authorization?: string;
}

export interface FakeOAuthServers {
  mcpUrl: string;
  authUrl: string;
  requests: RecordedRequest[];
  /** Requests to one path of the authorization server. */
  requestsTo(path: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeOAuthServers(options: FakeOAuthOptions = {}): Promise<FakeOAuthServers> {
  const requests: RecordedRequest[] = [];
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  if (options.preRegistered) {
    clients.set(options.preRegistered.clientId, { secret: options.preRegistered.clientSecret, redirectUris: [] });
  }
  const codes = new Map<
    string,
    { challenge: string; clientId: string; redirectUri: string; scope: string; resource: string }
  >();
  const tokens = new Map<string, string[]>();
  let authUrl = '';
  let mcpUrl = '';

  const handleAuth = async (
    request: IncomingMessage,
    response: ServerResponse,
    { path, query, body }: { path: string; query: Record<string, string>; body: Record<string, string> },
  ) => {
    requests.push({
      server: 'auth',
      method: request.method ?? '',
      path,
      query,
      body,
      authorization: request.headers.authorization,
    });
    if (path === '/.well-known/oauth-authorization-server' && !options.noMetadata) {
      return json(response, 200, {
        issuer: options.issuer ?? authUrl,
        authorization_endpoint: `${authUrl}/authorize`,
        token_endpoint: `${authUrl}/token`,
        ...(options.registration === false ? {} : { registration_endpoint: `${authUrl}/register` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', JWT_BEARER_GRANT],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
        ...(options.codeChallengeMethods === null
          ? {}
          : { code_challenge_methods_supported: options.codeChallengeMethods ?? ['S256'] }),
        ...(options.clientIdMetadataDocumentSupported ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (path === '/register' && request.method === 'POST' && options.registration !== false) {
      const clientId = `client-${clients.size + 1}`;
      const redirectUris = JSON.parse(body.json ?? '{}').redirect_uris ?? [];
      clients.set(clientId, { redirectUris });
      return json(response, 201, {
        client_id: clientId,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
      });
    }
    if (path === '/authorize') {
      const client = clients.get(query.client_id ?? '');
      const isDocumentUrl = options.clientIdMetadataDocumentSupported && query.client_id?.startsWith('https://');
      if (!client && !isDocumentUrl) return json(response, 400, { error: 'invalid_client' });
      if (query.code_challenge_method !== 'S256' || !query.code_challenge)
        return json(response, 400, { error: 'invalid_request' });
      const code = randomBytes(8).toString('hex');
      codes.set(code, {
        challenge: query.code_challenge,
        clientId: query.client_id ?? '',
        redirectUri: query.redirect_uri ?? '',
        scope: query.scope ?? '',
        resource: query.resource ?? '',
      });
      const target = new URL(query.redirect_uri ?? '');
      target.searchParams.set('code', code);
      if (query.state) target.searchParams.set('state', query.state);
      response.writeHead(302, { location: target.href }).end();
      return;
    }
    if (path === '/token' && request.method === 'POST' && body.grant_type === 'client_credentials') {
      const denial = await checkClientCredentials(
        options.clientCredentials,
        body,
        request.headers.authorization,
        authUrl,
      );
      if (denial !== undefined) return json(response, 401, { error: 'invalid_client', error_description: denial });
      const token = `token-${randomBytes(8).toString('hex')}`;
      tokens.set(token, (body.scope ?? '').split(' ').filter(Boolean));
      return json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (path === '/token' && request.method === 'POST' && body.grant_type === JWT_BEARER_GRANT) {
      const denial = await checkIdJag(options.crossAppAccess, body, request.headers.authorization, authUrl, mcpUrl);
      if (denial !== undefined) return json(response, denial.status, denial.error);
      const token = `token-${randomBytes(8).toString('hex')}`;
      tokens.set(token, (body.scope ?? '').split(' ').filter(Boolean));
      return json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (path === '/token' && request.method === 'POST') {
      const grant = body.grant_type === 'authorization_code' ? codes.get(body.code ?? '') : undefined;
      if (!grant) return json(response, 400, { error: 'invalid_grant' });
      codes.delete(body.code ?? '');
      const client = clients.get(grant.clientId);
      if (client?.secret !== undefined && request.headers.authorization !== basic(grant.clientId, client.secret)) {
        return json(response, 401, { error: 'invalid_client' });
      }
      const verifierMatches =
        createHash('sha256')
          .update(body.code_verifier ?? '')
          .digest('base64url') === grant.challenge;
      if (!verifierMatches || body.redirect_uri !== grant.redirectUri || body.resource !== grant.resource) {
        return json(response, 400, {
          error: 'invalid_grant',
          error_description: 'PKCE, redirect_uri or resource mismatch',
        });
      }
      const token = `token-${randomBytes(8).toString('hex')}`;
      tokens.set(token, grant.scope.split(' ').filter(Boolean));
      return json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: grant.scope });
    }
    json(response, 404, { error: 'not_found' });
  };
  const auth = await listen(async (request, response) => handleAuth(request, response, await readRequest(request)));
  authUrl = auth.url;

  const mcp = await listen(async (request, response) => {
    const { path, query, body, raw } = await readRequest(request);
    if (options.legacyLayout && (path === '/.well-known/oauth-authorization-server' || path.startsWith('/oauth/'))) {
      return handleAuth(request, response, { path: path.replace(/^\/oauth/, ''), query, body });
    }
    requests.push({
      server: 'mcp',
      method: request.method ?? '',
      path,
      query,
      body,
      authorization: request.headers.authorization,
    });
    const resourceMetadataUrl = `${mcpUrl}/.well-known/oauth-protected-resource/mcp`;
    if (path === '/.well-known/oauth-protected-resource/mcp' && !options.legacyLayout) {
      return json(response, 200, {
        resource: options.resource ?? `${mcpUrl}/mcp`,
        authorization_servers: options.authorizationServers ?? [authUrl],
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    if (path !== '/mcp') return json(response, 404, { error: 'not_found' });
    const bearer = request.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    const granted = bearer === undefined ? undefined : tokens.get(bearer);
    if (granted === undefined) {
      response.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${options.resourceMetadataUrl ?? resourceMetadataUrl}"`,
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const message = raw === '' ? undefined : JSON.parse(raw);
    const callsWrite = message?.method === 'tools/call' && message.params?.name === 'write_note';
    if (callsWrite && options.writeScope && !granted.includes(options.writeScope)) {
      const scope = [...new Set([...granted, options.writeScope])].join(' ');
      response.writeHead(403, {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadataUrl}"`,
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ error: 'insufficient_scope' }));
      return;
    }
    if (options.taggedNote && message?.method === 'tools/call' && message.params?.name === 'tagged_note') {
      // Written raw: the server library would drop the `__proto__` key of its structured answer before sending.
      const result = `{"content":[{"type":"text","text":"a tagged note"}],"structuredContent":${TAGGED_NOTE}}`;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`);
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = notesServer(options.echoBearer ? bearer : undefined, options.taggedNote);
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, message);
  });
  mcpUrl = mcp.url;
  if (options.legacyLayout) authUrl = `${mcpUrl}/oauth`;

  return {
    mcpUrl: `${mcpUrl}/mcp`,
    authUrl,
    requests,
    requestsTo: (path) => requests.filter((entry) => entry.server === 'auth' && entry.path === path),
    async close() {
      await Promise.all([auth.close(), mcp.close()]);
    },
  };
}

function notesServer(echoedBearer?: string, taggedNote = false): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  if (echoedBearer !== undefined) {
    server.registerTool('whoami', { description: 'Says who is asking.', inputSchema: z.object({}) }, async () => ({
      content: [{ type: 'text', text: `you are Bearer ${echoedBearer}` }],
    }));
  }
  server.registerTool('read_notes', { description: 'Reads the notes.', inputSchema: z.object({}) }, async () => ({
    content: [{ type: 'text', text: 'no notes yet' }],
  }));
  if (taggedNote) {
    // Listed here; its call is answered raw, with a `__proto__` key in its structured answer (see TAGGED_NOTE).
    server.registerTool(
      'tagged_note',
      { description: 'Reads a tagged note.', inputSchema: z.object({}) },
      async () => ({
        content: [{ type: 'text', text: 'a tagged note' }],
      }),
    );
  }
  server.registerTool(
    'write_note',
    { description: 'Writes a note.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: `saved: ${text}` }] }),
  );
  return server;
}

/** Why a `client_credentials` token request is refused, or undefined when the client proved who it is. */
async function checkClientCredentials(
  client: FakeOAuthOptions['clientCredentials'],
  body: Record<string, string>,
  authorization: string | undefined,
  issuer: string,
): Promise<string | undefined> {
  if (client === undefined) return 'no client may use client_credentials';
  if (client.clientSecret !== undefined) {
    return authorization === basic(client.clientId, client.clientSecret) ? undefined : 'wrong Basic credentials';
  }
  if (client.publicKey === undefined) return 'the client has no credential';
  if (body.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
    return 'no JWT client assertion';
  }
  try {
    // RFC 7523 §3: the audience is the authorization server.
    await jwtVerify(body.client_assertion ?? '', client.publicKey, {
      audience: [issuer, `${issuer}/`],
      issuer: client.clientId,
      subject: client.clientId,
      maxTokenAge: '5m',
    });
    return undefined;
  } catch (error) {
    return `client assertion rejected: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Why a JWT bearer grant (cross-app access) is refused, as the error response; undefined when it is good. */
async function checkIdJag(
  client: FakeOAuthOptions['crossAppAccess'],
  body: Record<string, string>,
  authorization: string | undefined,
  issuer: string,
  mcpOrigin: string,
): Promise<{ status: number; error: { error: string; error_description: string } } | undefined> {
  const refuse = (status: number, error: string, description: string) => ({
    status,
    error: { error, error_description: description },
  });
  if (client === undefined) return refuse(400, 'unsupported_grant_type', 'no client may use the JWT bearer grant');
  if (authorization !== basic(client.clientId, client.clientSecret)) {
    return refuse(401, 'invalid_client', 'wrong Basic credentials');
  }
  try {
    const { payload } = await jwtVerify(body.assertion ?? '', client.idJagKey, {
      typ: 'oauth-id-jag+jwt',
      issuer: client.idpIssuer,
      audience: [issuer, `${issuer}/`],
    });
    if (payload.client_id !== client.clientId) return refuse(400, 'invalid_grant', 'ID-JAG for another client');
    if (payload.resource !== `${mcpOrigin}/mcp`) return refuse(400, 'invalid_grant', 'ID-JAG for another resource');
    if (body.resource !== `${mcpOrigin}/mcp`) return refuse(400, 'invalid_target', 'no or another resource');
    return undefined;
  } catch (error) {
    return refuse(400, 'invalid_grant', `ID-JAG rejected: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

export async function readRequest(request: IncomingMessage) {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = request.headers['content-type'] ?? '';
  const body: Record<string, string> = type.includes('application/x-www-form-urlencoded')
    ? Object.fromEntries(new URLSearchParams(raw))
    : { json: raw };
  return { path: url.pathname, query: Object.fromEntries(url.searchParams), body, raw };
}

export async function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
