// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax under test, not a template mistake.
/** `gateway.oauth`, `gateway.stateless` and `gateway.store`: defaults, substitution, and errors naming the exact key. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { thrownConfigError } from '../helpers/config-errors.js';

const FILE = path.resolve('/projects/demo/mcp-host.json');

function parse(oauth: unknown, env: Record<string, string | undefined> = {}) {
  return parseConfig(JSON.stringify({ mcpServers: {}, gateway: { oauth } }), FILE, env).gateway?.oauth;
}

function failure(oauth: unknown): ConfigError {
  return thrownConfigError(() => parse(oauth));
}

describe('gateway.oauth', () => {
  it('takes the issuer, fills defaults and substitutes URLs from the environment', () => {
    expect(parse({ issuer: 'https://auth.example.test' })).toEqual({
      issuer: 'https://auth.example.test',
      requiredScopes: [],
      clockToleranceSeconds: 30,
    });
    expect(
      parse(
        {
          issuer: 'https://auth.example.test/tenant',
          resource: '${env:PUBLIC_URL}/mcp/',
          jwksUri: 'http://127.0.0.1:9000/keys',
          audience: 'api://mcp',
          requiredScopes: ['mcp:tools'],
          clockToleranceSeconds: 5,
        },
        { PUBLIC_URL: 'https://mcp.example.test' },
      ),
    ).toEqual({
      issuer: 'https://auth.example.test/tenant',
      resource: 'https://mcp.example.test/mcp',
      jwksUri: 'http://127.0.0.1:9000/keys',
      audience: 'api://mcp',
      requiredScopes: ['mcp:tools'],
      clockToleranceSeconds: 5,
    });
  });

  it('names the key and what belongs there', () => {
    const plain = failure({ issuer: 'http://auth.example.test' });
    expect(plain.keyPath).toBe('gateway.oauth.issuer');
    expect(plain.message).toContain('https URL');
    expect(failure({ issuer: 'https://a.example.test', resource: 'not a url' }).keyPath).toBe('gateway.oauth.resource');
    expect(failure({ issuer: 'https://a.example.test', jwksUri: 'https://a.example.test/k#x' }).message).toContain(
      'fragment',
    );
    expect(failure({ issuer: 'https://a.example.test', requiredScopes: ['two words'] }).keyPath).toBe(
      'gateway.oauth.requiredScopes[0]',
    );
    expect(failure({ issuer: 'https://a.example.test', clockToleranceSeconds: 9999 }).message).toContain('0 to 300');
    expect(failure({ issuer: 'https://a.example.test', issuers: [] }).keyPath).toBe('gateway.oauth');
    expect(failure({}).keyPath).toBe('gateway.oauth.issuer');
  });
});

describe('gateway.stateless and gateway.store', () => {
  function gateway(value: unknown, env: Record<string, string | undefined> = {}) {
    return parseConfig(JSON.stringify({ mcpServers: {}, gateway: value }), FILE, env);
  }

  it('defaults to stateful sessions and a memory store; takes a Redis URL from the environment as a secret', () => {
    expect(gateway({}).gateway).toMatchObject({ stateless: false, store: { type: 'memory' } });
    const config = gateway(
      { stateless: true, store: { type: 'redis', url: '${env:REDIS_URL}' } },
      { REDIS_URL: 'redis://:pa55word@10.0.0.5:6379/2' },
    );
    expect(config.gateway).toMatchObject({
      stateless: true,
      store: { type: 'redis', url: 'redis://:pa55word@10.0.0.5:6379/2', keyPrefix: 'mcp-host:' },
    });
    expect(config.secrets).toContain('pa55word');
  });

  it('names the key when the store is wrong', () => {
    const error = (value: unknown): ConfigError => thrownConfigError(() => gateway(value));
    expect(error({ stateless: true, store: { type: 'redis', url: 'http://x' } }).keyPath).toBe('gateway.store.url');
    expect(error({ store: { type: 'redis', url: 'redis://x' } }).keyPath).toBe('gateway.stateless');
    expect(error({ stateless: true, store: { type: 'memcached' } }).keyPath).toBe('gateway.store.type');
  });
});

describe('gateway.maxSessions, gateway.maxSessionsPerClient and gateway.sessionIdleTimeoutMs', () => {
  const gateway = (value: unknown) => parseConfig(JSON.stringify({ mcpServers: {}, gateway: value }), FILE, {}).gateway;

  it('defaults to 200 sessions, 20 per client, closed after 30 idle minutes; takes other values', () => {
    expect(gateway({})).toMatchObject({ maxSessions: 200, maxSessionsPerClient: 20, sessionIdleTimeoutMs: 1_800_000 });
    expect(gateway({ maxSessions: 5, maxSessionsPerClient: 1, sessionIdleTimeoutMs: 60_000 })).toMatchObject({
      maxSessions: 5,
      maxSessionsPerClient: 1,
      sessionIdleTimeoutMs: 60_000,
    });
  });

  it('names the key when a bound is not a positive whole number', () => {
    const error = (value: unknown): ConfigError => thrownConfigError(() => gateway(value));
    expect(error({ maxSessions: 0 }).keyPath).toBe('gateway.maxSessions');
    expect(error({ maxSessionsPerClient: 1.5 }).keyPath).toBe('gateway.maxSessionsPerClient');
    expect(error({ sessionIdleTimeoutMs: '30m' }).keyPath).toBe('gateway.sessionIdleTimeoutMs');
    expect(error({ sessionIdleTimeoutMs: '30m' }).message).toContain('a positive whole number of milliseconds');
  });
});

describe('gateway.retryFailedServersMs', () => {
  const gateway = (value: unknown) => parseConfig(JSON.stringify({ mcpServers: {}, gateway: value }), FILE, {}).gateway;

  it('defaults to 30 seconds, takes 0 (never) and other values, and names the key for anything else', () => {
    expect(gateway({})?.retryFailedServersMs).toBe(30_000);
    expect(gateway({ retryFailedServersMs: 0 })?.retryFailedServersMs).toBe(0);
    expect(gateway({ retryFailedServersMs: 5_000 })?.retryFailedServersMs).toBe(5_000);
    for (const value of [-1, 1.5, '30s']) {
      const error = thrownConfigError(() => gateway({ retryFailedServersMs: value }));
      expect(error.keyPath).toBe('gateway.retryFailedServersMs');
      expect(error.message).toContain('0 or more (0: never)');
    }
  });
});

describe("a server's `stateful`", () => {
  const servers = (entry: Record<string, unknown>) =>
    parseConfig(JSON.stringify({ mcpServers: { browser: { command: 'node', ...entry } } }), FILE, {});

  it('marks a server that keeps state per connection, and is absent by default', () => {
    expect(servers({ stateful: true }).servers[0]).toMatchObject({ name: 'browser', stateful: true });
    expect(servers({}).servers[0]?.stateful).toBeUndefined();
  });

  it('names the key when it is not true or false', () => {
    const error = thrownConfigError(() => servers({ stateful: 'yes' }));
    expect(error.keyPath).toBe('mcpServers.browser.stateful');
    expect(error.message).toContain('true or false');
  });
});
