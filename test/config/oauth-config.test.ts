// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax under test, not a template mistake.
/** The per-server `oauth` settings: accepted shapes, substitution, secrets, and errors naming the exact key. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { RemoteServerConfig } from '../../src/config/types.js';

const FILE = path.resolve('/projects/demo/mcp-host.json');

function parse(oauth: unknown, env: Record<string, string | undefined> = {}) {
  return parseConfig(
    JSON.stringify({ mcpServers: { remote: { url: 'https://tools.example.test/mcp', oauth } } }),
    FILE,
    env,
  );
}

function remote(oauth: unknown, env: Record<string, string | undefined> = {}): RemoteServerConfig {
  return parse(oauth, env).servers[0] as RemoteServerConfig;
}

function failure(oauth: unknown): ConfigError {
  try {
    parse(oauth);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('mcpServers.NAME.oauth', () => {
  it('is left out when not written, so remote servers get OAuth with the defaults', () => {
    const config = parseConfig(
      JSON.stringify({ mcpServers: { remote: { url: 'https://tools.example.test/mcp' } } }),
      FILE,
      {},
    );
    expect(config.servers[0]).not.toHaveProperty('oauth');
  });

  it('accepts false to turn OAuth off', () => {
    expect(remote(false).oauth).toBe(false);
  });

  it('reads every setting, substitutes variables and treats the client secret as a secret', () => {
    const config = parse(
      {
        clientId: 'mcp-host-${env:TEAM}',
        clientSecret: '${env:OAUTH_SECRET}',
        scopes: ['notes:read', 'notes:write'],
        clientMetadataUrl: 'https://client.example.test/mcp-host.json',
        redirectPort: 8976,
      },
      { TEAM: 'blue', OAUTH_SECRET: 's3cret-value' },
    );
    expect((config.servers[0] as RemoteServerConfig).oauth).toEqual({
      clientId: 'mcp-host-blue',
      clientSecret: 's3cret-value',
      scopes: ['notes:read', 'notes:write'],
      clientMetadataUrl: 'https://client.example.test/mcp-host.json',
      redirectPort: 8976,
    });
    expect(config.secrets).toContain('s3cret-value');
  });

  it('names the exact key of a wrong value', () => {
    const port = failure({ redirectPort: 70000 });
    expect(port.keyPath).toBe('mcpServers.remote.oauth.redirectPort');
    expect(port.message).toBe(
      `${FILE}: mcpServers.remote.oauth.redirectPort: expected a port number from 1 to 65535, found the number 70000.`,
    );
    expect(failure({ scopes: ['read', 3] }).keyPath).toBe('mcpServers.remote.oauth.scopes[1]');
    expect(failure({ clientId: '' }).expected).toBe('a non-empty client ID as a string');
    expect(failure(true).message).toMatch(/mcpServers\.remote\.oauth: expected false \(no OAuth\) or an object/);
  });

  it('wants a client ID with a secret, and an https URL with a path as the metadata document', () => {
    expect(failure({ clientSecret: 'x' }).message).toMatch(
      /oauth\.clientId: expected the client ID that goes with `clientSecret`, found nothing/,
    );
    const insecure = failure({ clientMetadataUrl: 'http://client.example.test/doc.json' });
    expect(insecure.keyPath).toBe('mcpServers.remote.oauth.clientMetadataUrl');
    expect(insecure.expected).toBe('an https:// URL with a path (it becomes the client ID)');
    expect(failure({ clientMetadataUrl: 'https://client.example.test/' }).keyPath).toBe(
      'mcpServers.remote.oauth.clientMetadataUrl',
    );
  });

  it('warns about keys it does not use, and about oauth on a local server', () => {
    expect(parse({ clientId: 'a', audience: 'x' }).warnings).toEqual([
      `${FILE}: mcpServers.remote.oauth.audience: not an OAuth setting mcp-host uses; ignored`,
    ]);
    const local = parseConfig(JSON.stringify({ mcpServers: { fs: { command: 'node', oauth: false } } }), FILE, {});
    expect(local.warnings).toEqual([`${FILE}: mcpServers.fs.oauth: only used by remote servers; ignored`]);
  });
});
