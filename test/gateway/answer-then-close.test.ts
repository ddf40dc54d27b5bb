/**
 * The stateless gateway answers each request with a server made for it, which is among its profile's sessions (where
 * servers' log messages and requests look for clients) from when it serves its transport until it is closed. It is closed however the request ends:
 * here the answering step fails, the request is abandoned while its answer is made, and the answer's reader cancels
 * it (the request itself not abandoned). A real profile and a real
 * gateway session in this process; the session is seen in the profile by the log level it holds, which the level the
 * profile's servers are set to takes into account.
 */
import { type Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GATEWAY_SETTINGS } from '../../src/config/gateway-settings.js';
import { answerThenClose } from '../../src/gateway/answer-then-close.js';
import { createGatewayHosts, type GatewayHosts, type ProfileHost } from '../../src/gateway/gateway-hosts.js';
import { createGatewaySession } from '../../src/gateway/gateway-session.js';
import { hostConfig } from '../helpers/configs.js';

let hosts: GatewayHosts;
let profile: ProfileHost;

beforeAll(async () => {
  hosts = createGatewayHosts(hostConfig([]), {});
  profile = await hosts.get(undefined);
});

afterAll(async () => {
  await hosts?.close();
});

/** A session of one request, as the stateless gateway makes it, holding the most verbose level. */
function oneRequestSession(): Server {
  return createGatewaySession({
    profile,
    settings: DEFAULT_GATEWAY_SETTINGS,
    version: '0.0.0',
    session: () => 'one-request-session',
    resourceSubscriptions: false,
    // Its level counts no longer than the session is among the profile's: the level seen is the session's own.
    requestLogging: { level: 'debug', remember: async () => undefined, keptForMs: 0 },
  });
}

/** Whether a session asking for `debug` is still among the profile's: the level its servers get is then `debug`. */
function debugSessionRegistered(server: Server): boolean {
  // Asked for a stand-in that is not among them: the answer is the most verbose level among them.
  return profile.sessions.setLevel({ server }, 'emergency') === 'debug';
}

const ping = (signal: AbortSignal): Request =>
  new Request('http://gateway.invalid/mcp', {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    signal,
  });

describe('a stateless request’s own server', () => {
  it('leaves the profile when answering the request fails', async () => {
    const server = oneRequestSession();
    let registered = false;
    let closed: Promise<void> | undefined;
    const answered = answerThenClose(
      new AbortController().signal,
      async () => {
        await server.connect(new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
        registered = debugSessionRegistered(server);
        throw new Error('the answering step failed');
      },
      () => {
        closed = server.close();
      },
    );
    await expect(answered).rejects.toThrow('the answering step failed');
    await closed;
    expect(registered).toBe(true);
    expect(debugSessionRegistered(server)).toBe(false);
  });

  it('leaves the profile when the request is abandoned before its answer is made, its body never read', async () => {
    const server = oneRequestSession();
    let registered = false;
    const abandoned = new AbortController();
    let closed: Promise<void> | undefined;
    const response = await answerThenClose(
      abandoned.signal,
      async () => {
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        await server.connect(transport);
        registered = debugSessionRegistered(server);
        const answer = await transport.handleRequest(ping(abandoned.signal));
        abandoned.abort();
        return answer;
      },
      () => {
        closed = server.close();
      },
    );
    // The client went away: its answer is given up, not read.
    await response.body?.cancel();
    await closed;
    expect(registered).toBe(true);
    expect(debugSessionRegistered(server)).toBe(false);
  });

  it('leaves the profile when the answer’s reader cancels it unread, the request not abandoned', async () => {
    const server = oneRequestSession();
    let registered = false;
    const request = new AbortController();
    let closed: Promise<void> | undefined;
    const response = await answerThenClose(
      request.signal,
      async () => {
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        await server.connect(transport);
        registered = debugSessionRegistered(server);
        return transport.handleRequest(ping(request.signal));
      },
      () => {
        closed = server.close();
      },
    );
    await response.body?.cancel();
    expect(request.signal.aborted).toBe(false);
    await closed;
    expect(registered).toBe(true);
    expect(debugSessionRegistered(server)).toBe(false);
  });
});
