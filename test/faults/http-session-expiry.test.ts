/**
 * A Streamable HTTP server that forgets the session (404 with our session id): the host starts a new session,
 * sends the call again only when it is safe to retry, and reports a second 404 in a row as an error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RemoteServerConfig } from '../../src/config/types.js';
import { type ForgetfulServer, startForgetfulServer } from '../fixtures/faults/forgetful-http-server.js';
import { hostConfig, httpServer } from '../helpers/configs.js';
import { closeHosts, openFaultHost, resultText } from './fault-helpers.js';

let server: ForgetfulServer;

beforeEach(async () => {
  server = await startForgetfulServer();
});

afterEach(async () => {
  await closeHosts();
  await server.close();
});

function remote(url: string): RemoteServerConfig {
  // Trusted, so that the read-only `lookup` counts as safe to retry.
  return httpServer('remote', url, { trust: 'trusted' });
}

describe('an expired Streamable HTTP session', () => {
  it('re-initialises and repeats a call that is safe to retry', async () => {
    const host = await openFaultHost(hostConfig([remote(server.url)]));
    expect(host.servers()[0]?.state).toBe('connected');
    server.forgetSessions();
    const started = performance.now();
    const call = await host.callTool('remote__lookup', { key: 'k' });
    console.info(`expired session: re-initialised and answered in ${Math.round(performance.now() - started)} ms`);
    expect(call.outcome).toBe('ok');
    expect(resultText(call.result)).toBe('value of k (call 1)');
    expect(server.notFoundAnswers()).toBeGreaterThanOrEqual(1);
    expect(server.sessionsStarted()).toBe(2);
    expect(server.counts.lookup).toBe(1);
  });

  it('re-initialises but does not repeat a call that is not safe to retry', async () => {
    const host = await openFaultHost(hostConfig([remote(server.url)]));
    server.forgetSessions();
    const call = await host.callTool('remote__record', { entry: 'e' });
    expect(call.result.isError).toBe(true);
    expect(resultText(call.result)).toContain('session expired (404)');
    expect(resultText(call.result)).toContain('not repeated');
    expect(server.counts.record).toBe(0);
    expect(server.sessionsStarted()).toBe(2);
    // The new session works for the next call.
    const next = await host.callTool('remote__record', { entry: 'again' });
    expect(resultText(next.result)).toBe('recorded again (call 1)');
  });

  it('reports a second 404 right after re-initialising as an error', async () => {
    const host = await openFaultHost(hostConfig([remote(server.url)]));
    server.forgetSessions();
    server.forgetNewSessions(1);
    const call = await host.callTool('remote__lookup', { key: 'k' });
    expect(call.result.isError).toBe(true);
    expect(resultText(call.result)).toContain('second 404');
    expect(server.counts.lookup).toBe(0);
    expect(server.sessionsStarted()).toBe(2);
  });
});
