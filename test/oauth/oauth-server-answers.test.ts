/**
 * A server behind OAuth is read like any other: the wrapper that re-sends a request after an authorization sits
 * under the host's own wrappers of the connection, so the `__proto__` keys of its answers are kept too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeHosts, openFaultHost } from '../faults/fault-helpers.js';
import { hostConfig, httpServer } from '../helpers/configs.js';
import { type FakeOAuthServers, startFakeOAuthServers, TAGGED_NOTE } from './fake-oauth-servers.js';

let servers: FakeOAuthServers | undefined;
afterEach(async () => {
  await closeHosts();
  await servers?.close();
  servers = undefined;
});

describe('a server behind OAuth', () => {
  it("keeps the __proto__ key of a call's structured answer as data", async () => {
    servers = await startFakeOAuthServers({
      registration: false,
      taggedNote: true,
      clientCredentials: { clientId: 'nightly-job', clientSecret: 'job-secret' },
    });
    const oauth = { grant: 'client_credentials', clientId: 'nightly-job', clientSecret: 'job-secret' } as const;
    const host = await openFaultHost(hostConfig([httpServer('notes', servers.mcpUrl, { oauth })]));
    const call = await host.callTool('notes__tagged_note', {});
    expect(call.outcome).toBe('ok');
    expect(servers.requestsTo('/token')).toHaveLength(1);
    const structured = (call.rawResult as { structuredContent: Record<string, unknown> }).structuredContent;
    expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
    expect(Object.hasOwn(structured, '__proto__')).toBe(true);
    expect(JSON.stringify(structured)).toBe(TAGGED_NOTE);
  });
});
