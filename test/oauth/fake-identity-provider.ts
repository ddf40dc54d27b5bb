/**
 * An enterprise identity provider on 127.0.0.1 for the cross-app access tests: it signs people's ID tokens, and
 * its token endpoint exchanges a valid one for an ID-JAG (RFC 8693 token exchange, SEP-990), checking what a real
 * one would (the token types, the audience and resource, its client's credentials, the ID token's signature,
 * issuer, audience and expiry). Every request is recorded, and every ID-JAG issued, so tests can assert on them.
 */
import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { json, listen, readRequest } from './fake-oauth-servers.js';

export interface FakeIdentityProviderOptions {
  /** The host's client at the identity provider; ID tokens are issued for it. */
  clientId: string;
  /** When set, the token exchange must carry it (`client_secret` in the body). */
  clientSecret?: string;
  /** The `client_id` the ID-JAG names: the host's client at the MCP server's authorization server. */
  idJagClientId: string;
  /** A careless provider: its refusals quote the ID token they refused. */
  echoRefusedToken?: boolean;
}

export interface FakeIdentityProvider {
  issuer: string;
  tokenEndpoint: string;
  /** The public key the ID-JAGs are signed with, for the authorization server to check them. */
  idJagKey: KeyObject;
  /** The form bodies of the token endpoint's requests. */
  exchanges: Array<Record<string, string>>;
  /** Every ID-JAG handed out. */
  issued: string[];
  /** An ID token for `subject`, signed by this provider (or by `signer`, for a forged one). */
  idToken(subject: string, options?: { expiresInSeconds?: number; signer?: KeyObject }): Promise<string>;
  close(): Promise<void>;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

export async function startFakeIdentityProvider(options: FakeIdentityProviderOptions): Promise<FakeIdentityProvider> {
  const idTokenKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const idJagKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const exchanges: Array<Record<string, string>> = [];
  const issued: string[] = [];
  let issuer = '';

  const server = await listen(async (request, response) => {
    const { path, body } = await readRequest(request);
    if (path === '/.well-known/oauth-authorization-server') {
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: [TOKEN_EXCHANGE],
      });
    }
    if (path !== '/token' || request.method !== 'POST') return json(response, 404, { error: 'not_found' });
    exchanges.push(body);
    const refuse = (error: string, description: string) =>
      json(response, 400, { error, error_description: description });
    if (body.grant_type !== TOKEN_EXCHANGE) return refuse('unsupported_grant_type', 'only token exchange');
    if (body.subject_token_type !== ID_TOKEN_TYPE || body.requested_token_type !== ID_JAG_TYPE) {
      return refuse('invalid_request', 'an ID token for an ID-JAG only');
    }
    if (!body.audience || !body.resource) return refuse('invalid_request', 'audience and resource are required');
    if (body.client_id !== options.clientId) return refuse('invalid_client', 'unknown client');
    if (options.clientSecret !== undefined && body.client_secret !== options.clientSecret) {
      return json(response, 401, { error: 'invalid_client', error_description: 'wrong client secret' });
    }
    let subject: string;
    try {
      const { payload } = await jwtVerify(body.subject_token ?? '', idTokenKeys.publicKey, {
        issuer,
        audience: options.clientId,
      });
      subject = String(payload.sub);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'invalid';
      const quoted = options.echoRefusedToken ? `: ${body.subject_token}` : '';
      return refuse('invalid_grant', `ID token rejected (${code})${quoted}`);
    }
    const idJag = await new SignJWT({ client_id: options.idJagClientId, resource: body.resource, scope: body.scope })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
      .setIssuer(issuer)
      .setSubject(subject)
      .setAudience(body.audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(idJagKeys.privateKey);
    issued.push(idJag);
    json(response, 200, { access_token: idJag, issued_token_type: ID_JAG_TYPE, token_type: 'N_A', expires_in: 300 });
  });
  issuer = server.url;

  return {
    issuer,
    tokenEndpoint: `${issuer}/token`,
    idJagKey: idJagKeys.publicKey,
    exchanges,
    issued,
    idToken: (subject, { expiresInSeconds = 3600, signer = idTokenKeys.privateKey } = {}) =>
      new SignJWT({ email: `${subject}@example.test` })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(issuer)
        .setSubject(subject)
        .setAudience(options.clientId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(signer),
    close: () => server.close(),
  };
}
