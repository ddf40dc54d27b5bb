// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax, not a template mistake.
/**
 * Connections that send their headers, or a body, a byte at a time cost the gateway little: at most 256 not yet
 * authenticated are held at once (the oldest dropped for a new one), each closed 10 s after it began waiting for
 * headers, so a client is still served in the middle of such a flood. Clients that have authenticated keep Node's
 * request timeout, which ends a request whose body does not come, and never cuts the event stream they listen on.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/config/gateway-settings.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createGatewayHosts, type GatewayHosts } from '../../src/gateway/gateway-hosts.js';
import { type GatewayHttp, startGatewayHttp } from '../../src/gateway/gateway-http.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/authorization-server.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess } from '../helpers/gateway-process.js';
import { mcpPostHeaders } from '../helpers/mcp-post-headers.js';
import { temporaryDirectory } from '../helpers/project.js';
import { destroyAll, type HeldSocket, openHeldSockets, someClosed } from '../helpers/slow-sockets.js';

const TOKEN = 'a-slow-connections-token-for-the-team';
/** The gateway's bounds (gateway-http.ts). */
const MAX_UNAUTHENTICATED = 256;
const HEADERS_TIMEOUT_MS = 10_000;
/** Sockets past the cap: each pushes out the oldest. */
const OVERFLOW = 20;
/** What the machine may add to a timeout: the tests run on busy shared machines. */
const SLACK_MS = 5_000;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'slow-connections-test', version: '1' },
  },
});

let configPath: string;
const held: HeldSocket[] = [];

beforeAll(async () => {
  configPath = await writeFixtureServersConfig(
    { counter: { file: 'counter.mjs' } },
    { fields: { gateway: { tokens: [{ name: 'team', token: '${env:TEAM_TOKEN}' }] } } },
  );
});

afterAll(() => destroyAll(held));

describe('mcp-host serve --http, against connections that send their request slowly', () => {
  let gateway: GatewayProcess | undefined;
  afterAll(async () => {
    await gateway?.stop();
  });

  it('holds at most 256 not yet authenticated, serves a client meanwhile, and closes the rest after 10 s', async () => {
    const stateDir = await temporaryDirectory('mcp-host-slow-connections-state-');
    gateway = await startGatewayProcess(['--config', configPath, '--state-dir', stateDir], { TEAM_TOKEN: TOKEN });
    const partial = await openHeldSockets(gateway.url, MAX_UNAUTHENTICATED + OVERFLOW, 'POST /mcp HT');
    held.push(...partial);
    // The cap is reached: the oldest go, long before their headers would have run out of time.
    await someClosed(partial, OVERFLOW);
    const dropped = partial.filter((entry) => entry.closedAt !== undefined);
    for (const entry of dropped) expect(entry.closedAt! - entry.openedAt).toBeLessThan(HEADERS_TIMEOUT_MS);

    const served = await fetch(gateway.url, { method: 'POST', headers: mcpPostHeaders(TOKEN), body: INITIALIZE });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('"serverInfo"');

    // Headers complete, a body that never comes, no token: answered 401, then closed as any connection waiting.
    const { host } = new URL(gateway.url);
    const slowBody = await openHeldSockets(
      gateway.url,
      3,
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"`,
    );
    held.push(...slowBody);

    await Promise.all([...partial, ...slowBody].map((entry) => entry.closed));
    const early = [...partial, ...slowBody].filter(
      (entry) => entry.closedAt! - entry.openedAt < HEADERS_TIMEOUT_MS - 1_000,
    );
    // Pushed out: the overflow, and one for each connection opened after it (the client's, the slow bodies).
    expect(early.length).toBeGreaterThanOrEqual(OVERFLOW);
    expect(early.length).toBeLessThanOrEqual(OVERFLOW + 6);
    for (const entry of [...partial, ...slowBody]) {
      expect(entry.closedAt! - entry.openedAt).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
    }
  }, 90_000);
});

describe('mcp-host serve --http, answering requests that need no token at once', () => {
  let gateway: GatewayProcess | undefined;
  afterAll(async () => {
    await gateway?.stop();
  });

  it('answers /health and a foreign Host on connections it has not admitted, and goes on serving', async () => {
    const stateDir = await temporaryDirectory('mcp-host-slow-connections-state-');
    gateway = await startGatewayProcess(['--config', configPath, '--state-dir', stateDir], { TEAM_TOKEN: TOKEN });
    const health = await rawGet(new URL('/health', gateway.url).href, {});
    expect(health.status).toBe(200);
    expect(health.keepAlive).toBe(`timeout=${HEADERS_TIMEOUT_MS / 1_000}`);
    health.socket.destroy();
    const foreign = await rawGet(new URL('/ready', gateway.url).href, { host: 'attacker.example:80' });
    expect(foreign.status).toBe(403);
    foreign.socket.destroy();
    const ready = await fetch(new URL('/ready', gateway.url));
    expect(ready.status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
  }, 90_000);
});

describe('a gateway whose request timeout is short', () => {
  const REQUEST_TIMEOUT_MS = 1_500;
  let hosts: GatewayHosts | undefined;
  let gateway: GatewayHttp | undefined;
  afterAll(async () => {
    await gateway?.close();
    await hosts?.close();
  });

  it('ends an authenticated request whose body does not come, and leaves a client’s event stream open', async () => {
    const stateDir = await temporaryDirectory('mcp-host-slow-connections-state-');
    const config = await loadConfig({ configPath, cwd: stateDir, env: { TEAM_TOKEN: TOKEN }, stateDir });
    hosts = createGatewayHosts(config, { cwd: stateDir, stateDir, onDiagnostic: () => undefined });
    gateway = await startGatewayHttp({
      hosts,
      tokens: [{ name: 'team', sha256: sha256Hex(TOKEN) }],
      port: 0,
      version: '0.0.0',
      onDiagnostic: () => undefined,
      connectionBounds: {
        maxUnadmitted: 8,
        headersTimeoutMs: 1_000,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: 65_000,
      },
    });
    const opened = await fetch(gateway.url, { method: 'POST', headers: mcpPostHeaders(TOKEN), body: INITIALIZE });
    expect(opened.status).toBe(200);
    await opened.text();
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    const initialized = await fetch(gateway.url, {
      method: 'POST',
      headers: mcpPostHeaders(TOKEN, sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(initialized.status).toBe(202);

    const stream = await fetch(gateway.url, {
      headers: { ...mcpPostHeaders(TOKEN, sessionId), accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    let streamEnded: 'open' | 'ended' | 'failed' = 'open';
    const streamRead = (async () => {
      const reader = stream.body!.getReader();
      try {
        while (!(await reader.read()).done);
        streamEnded = 'ended';
      } catch {
        streamEnded = 'failed';
      }
    })();

    // Two requests in turn, each cut by the request timeout: the stream, older than both, outlives them.
    const { host } = new URL(gateway.url);
    for (let turn = 0; turn < 2; turn += 1) {
      const [slow] = await openHeldSockets(
        gateway.url,
        1,
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"`,
      );
      held.push(slow!);
      const closedAt = await slow!.closed;
      expect(closedAt - slow!.openedAt).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    }
    expect(streamEnded).toBe('open');

    // Ending the session ends the stream as a finished answer, not a cut connection.
    const deleted = await fetch(gateway.url, { method: 'DELETE', headers: mcpPostHeaders(TOKEN, sessionId) });
    expect(deleted.status).toBe(200);
    await streamRead;
    expect(streamEnded).toBe('ended');
  }, 60_000);

  it('tells a client answered 401 the idle time its connection really has, and not an admitted one', async () => {
    const refused = await rawPost(gateway!.url, {});
    expect(refused.status).toBe(401);
    // Kept for the next request's headers only (1 s here), where Node would have said 65.
    expect(refused.keepAlive).toBe('timeout=1');
    // Closed within the test's limit (30 s), where Node's idle time (65 s) would have kept it past that.
    await refused.idleClose;

    const admitted = await rawPost(gateway!.url, { authorization: `Bearer ${TOKEN}` });
    expect(admitted.status).toBe(200);
    // Admitted while being answered: the short time is not said (this answer, an event stream, names no time).
    expect(admitted.keepAlive).not.toBe('timeout=1');
    admitted.socket.destroy();
  }, 30_000);
});

/** One POST of `initialize` on a connection of its own, with the answer's Keep-Alive header and the socket kept. */
function rawPost(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; keepAlive: string | undefined; socket: Socket; idleClose: Promise<number> }>(
    (resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        agent: new Agent({ keepAlive: true, maxSockets: 1 }),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        const { socket } = response;
        const answeredAt = Date.now();
        const idleClose = new Promise<number>((closed) => socket.once('close', () => closed(Date.now() - answeredAt)));
        response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            keepAlive: response.headers['keep-alive']?.toString(),
            socket,
            idleClose,
          }),
        );
      });
      request.end(INITIALIZE);
    },
  );
}

/** One GET on a connection of its own, with the answer's Keep-Alive header and the socket kept. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; keepAlive: string | undefined; socket: Socket }>((resolve, reject) => {
    const request = httpRequest(url, { agent: new Agent({ keepAlive: true, maxSockets: 1 }), headers });
    request.on('error', reject);
    request.on('response', (response) => {
      const { socket } = response;
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, keepAlive: response.headers['keep-alive']?.toString(), socket }),
      );
    });
    request.end();
  });
}

describe('a gateway checking OAuth tokens, while connections that send nothing pile up', () => {
  const MAX = 8;
  let authorization: AuthorizationServer | undefined;
  let hosts: GatewayHosts | undefined;
  let gateway: GatewayHttp | undefined;
  afterAll(async () => {
    await gateway?.close();
    await hosts?.close();
    await authorization?.close();
  });

  it('pushes out those connections, not a client whose token is being checked', async () => {
    let keysAsked!: () => void;
    const asked = new Promise<void>((resolve) => {
      keysAsked = resolve;
    });
    let giveKeys!: () => void;
    const given = new Promise<void>((resolve) => {
      giveKeys = resolve;
    });
    authorization = await startAuthorizationServer({}, () => {
      keysAsked();
      return given;
    });
    const oauthConfig = await writeFixtureServersConfig(
      { counter: { file: 'counter.mjs' } },
      { fields: { gateway: { oauth: { issuer: authorization.issuer, requiredScopes: ['mcp:tools'] } } } },
    );
    const stateDir = await temporaryDirectory('mcp-host-slow-connections-state-');
    const config = await loadConfig({ configPath: oauthConfig, cwd: stateDir, env: {}, stateDir });
    hosts = createGatewayHosts(config, { cwd: stateDir, stateDir, onDiagnostic: () => undefined });
    gateway = await startGatewayHttp({
      hosts,
      tokens: [],
      port: 0,
      version: '0.0.0',
      onDiagnostic: () => undefined,
      connectionBounds: {
        maxUnadmitted: MAX,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 10_000,
        keepAliveTimeoutMs: 5_000,
      },
    });
    const token = await authorization.sign({ sub: 'alice', aud: gateway.url, scope: 'mcp:tools' });

    // The client's request has come; its token waits on the issuer's keys, held until the flood has pushed some out.
    const answer = fetch(gateway.url, { method: 'POST', headers: mcpPostHeaders(token), body: INITIALIZE });
    await asked;
    // With the client's, three past the cap: the three oldest of these go.
    const idle = await openHeldSockets(gateway.url, MAX + 2, 'POST /mcp HT');
    held.push(...idle);
    await someClosed(idle, 3);
    giveKeys();

    const served = await answer;
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('"serverInfo"');
    expect(idle.filter((entry) => entry.closedAt !== undefined).map((entry) => idle.indexOf(entry))).toEqual([0, 1, 2]);
  }, 30_000);
});
