/**
 * A small OAuth authorization server on 127.0.0.1 for tests: RFC 8414 metadata, a JWKS with one RS256 key, and a
 * token endpoint for the client_credentials grant (client_secret_basic) that signs JWT access tokens with jose,
 * audience = the `resource` parameter (RFC 8707). `sign` mints any token directly, for the failure cases.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export const KEY_ID = 'test-key-1';

export interface AuthorizationServer {
  issuer: string;
  /** Signs with the published key, or with another key under the same `kid` (`forged`). */
  sign(
    claims: JWTPayload,
    options?: { forged?: boolean; expiresIn?: string | number; notBefore?: string | number },
  ): Promise<string>;
  /** Access tokens issued at the token endpoint. */
  issued: Array<{ clientId: string; resource: string | undefined; scope: string | undefined }>;
  close(): Promise<void>;
}

export async function startAuthorizationServer(
  clients: Record<string, string>,
  /** Awaited before each answer of the JWKS: a test holds it to keep a token's check going on. */
  beforeKeys?: () => Promise<void>,
): Promise<AuthorizationServer> {
  const published = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(published.publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  const issued: AuthorizationServer['issued'] = [];
  let issuer = '';

  const sign: AuthorizationServer['sign'] = async (claims, options = {}) => {
    let jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m');
    if (claims.iss === undefined) jwt = jwt.setIssuer(issuer);
    if (options.notBefore !== undefined) jwt = jwt.setNotBefore(options.notBefore);
    return jwt.sign(options.forged ? other.privateKey : published.privateKey);
  };

  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    const { pathname } = new URL(request.url ?? '/', issuer);
    if (request.method === 'GET' && pathname === '/.well-known/oauth-authorization-server') {
      return send(200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        token_endpoint: `${issuer}/token`,
        authorization_endpoint: `${issuer}/authorize`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (request.method === 'GET' && pathname === '/jwks') {
      if (beforeKeys === undefined) return send(200, { keys: [jwk] });
      void beforeKeys().then(() => send(200, { keys: [jwk] }));
      return;
    }
    if (request.method === 'POST' && pathname === '/token') {
      let body = '';
      request.on('data', (chunk) => {
        body += String(chunk);
      });
      request.on('end', () => {
        const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
        const [clientId, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString().split(':') : [];
        if (clientId === undefined || clients[decodeURIComponent(clientId)] !== decodeURIComponent(secret ?? '')) {
          return send(401, { error: 'invalid_client' });
        }
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'client_credentials') return send(400, { error: 'unsupported_grant_type' });
        const resource = form.get('resource') ?? undefined;
        const scope = form.get('scope') ?? undefined;
        const id = decodeURIComponent(clientId);
        issued.push({ clientId: id, resource, scope });
        void sign({ sub: id, client_id: id, scope: scope ?? 'mcp:tools', ...(resource ? { aud: resource } : {}) }).then(
          (token) => send(200, { access_token: token, token_type: 'Bearer', expires_in: 300, scope }),
        );
      });
      return;
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    sign,
    issued,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
