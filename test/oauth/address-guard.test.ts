/**
 * Which server-supplied URLs the host fetches during OAuth: classification of addresses, the rules that depend on
 * where the server itself is, and the guarded fetch that applies them to every redirect hop and keeps configured
 * headers on the server's own origin.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  classifyAddress,
  createUrlGuard,
  type HostLookup,
  RefusedUrlError,
} from '../../src/connections/oauth/address-guard.js';
import { createGuardedFetch } from '../../src/connections/oauth/guarded-fetch.js';

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.10.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['172.32.0.1', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

/** A resolver with fixed answers, so the rules are tested without DNS. */
function fixedLookup(answers: Record<string, string[]>): HostLookup {
  return async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
    return addresses;
  };
}

describe('createUrlGuard', () => {
  const lookup = fixedLookup({
    'mcp.example.test': ['93.184.216.34'],
    'auth.example.test': ['93.184.216.35'],
    'metadata.google.internal': ['169.254.169.254'],
    'intranet.example.test': ['10.0.0.7'],
    'mixed.example.test': ['93.184.216.36', '10.0.0.8'],
  });

  it('for a server on the internet: allows https on the internet, refuses local and metadata addresses', async () => {
    const guard = createUrlGuard({ serverUrl: 'https://mcp.example.test/mcp', lookup });
    await expect(
      guard.check('https://auth.example.test/.well-known/oauth-authorization-server'),
    ).resolves.toBeUndefined();
    await expect(guard.check('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(/cloud metadata service/);
    await expect(guard.check('https://metadata.google.internal/computeMetadata/v1/')).rejects.toThrow(
      /metadata\.google\.internal.*cloud metadata service/,
    );
    await expect(guard.check('http://127.0.0.1:8080/')).rejects.toThrow(/loopback/);
    await expect(guard.check('https://intranet.example.test/')).rejects.toThrow(/private network/);
    // One private answer among public ones is enough to refuse.
    await expect(guard.check('https://mixed.example.test/')).rejects.toThrow(/private network/);
    await expect(guard.check('http://auth.example.test/')).rejects.toThrow(/must use https/);
    await expect(guard.check('file:///etc/passwd')).rejects.toThrow(/not file:/);
    await expect(guard.check('https://unknown.example.test/')).rejects.toThrow(/could not be resolved/);
  });

  it("always allows the server's own origin, which the user configured", async () => {
    const guard = createUrlGuard({ serverUrl: 'http://10.0.0.9:8000/mcp', lookup });
    await expect(guard.check('http://10.0.0.9:8000/.well-known/oauth-protected-resource/mcp')).resolves.toBeUndefined();
  });

  it('for a server on this machine: allows loopback and private addresses, still never link-local', async () => {
    const guard = createUrlGuard({ serverUrl: 'http://127.0.0.1:3000/mcp', lookup });
    await expect(guard.check('http://127.0.0.1:4000/authorize')).resolves.toBeUndefined();
    await expect(guard.check('http://[::1]:4000/token')).resolves.toBeUndefined();
    await expect(guard.check('http://intranet.example.test/')).resolves.toBeUndefined();
    await expect(guard.check('http://169.254.169.254/')).rejects.toBeInstanceOf(RefusedUrlError);
    await expect(guard.check('http://169.254.1.1/')).rejects.toThrow(/link-local/);
  });

  it('for a server on a private network: allows that network, refuses loopback', async () => {
    const guard = createUrlGuard({ serverUrl: 'http://intranet.example.test/mcp', lookup });
    await expect(guard.check('http://10.20.30.40/authorize')).resolves.toBeUndefined();
    await expect(guard.check('http://127.0.0.1/')).rejects.toThrow(/loopback/);
  });
});

describe('createGuardedFetch', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function recordingServer(
    answer: (path: string) => { status: number; location?: string },
  ): Promise<{ url: string; seen: Array<{ path: string; headers: IncomingHttpHeaders }> }> {
    const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
    const server = createServer((request, response) => {
      seen.push({ path: request.url ?? '', headers: request.headers });
      const { status, location } = answer(request.url ?? '');
      response.writeHead(status, location ? { location } : {}).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it('checks every redirect hop and refuses one that leads to a metadata address', async () => {
    const server = await recordingServer((path) =>
      path === '/metadata' ? { status: 302, location: 'http://169.254.169.254/latest/' } : { status: 200 },
    );
    const guardedFetch = createGuardedFetch({
      serverUrl: `${server.url}/mcp`,
      guard: createUrlGuard({ serverUrl: `${server.url}/mcp` }),
    });
    await expect(guardedFetch(`${server.url}/metadata`)).rejects.toThrow(
      /refused to fetch http:\/\/169\.254\.169\.254\/latest\//,
    );
    expect(server.seen.map((entry) => entry.path)).toEqual(['/metadata']);
  });

  it("sends the server's configured headers to its own origin only", async () => {
    const mcp = await recordingServer(() => ({ status: 200 }));
    const other = await recordingServer(() => ({ status: 200 }));
    const guardedFetch = createGuardedFetch({
      serverUrl: `${mcp.url}/mcp`,
      guard: createUrlGuard({ serverUrl: `${mcp.url}/mcp` }),
      configuredHeaders: { 'X-Api-Key': 'secret-key' },
    });
    const headers = { 'x-api-key': 'secret-key', 'mcp-protocol-version': '2025-11-25' };
    await (await guardedFetch(`${mcp.url}/mcp`, { headers })).text();
    await (await guardedFetch(`${other.url}/.well-known/oauth-authorization-server`, { headers })).text();
    expect(mcp.seen[0]?.headers['x-api-key']).toBe('secret-key');
    expect(other.seen[0]?.headers['x-api-key']).toBeUndefined();
    expect(other.seen[0]?.headers['mcp-protocol-version']).toBe('2025-11-25');
  });
});
