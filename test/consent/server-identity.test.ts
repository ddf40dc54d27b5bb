/**
 * A server's identity covers what really runs: command, args, the folder it starts in, and the environment the
 * config gives it (values hashed), or the URL. Changing any of them withholds the server's tools until the user
 * approves it again. Real stdio servers, one trust store shared by successive hosts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig, StdioServerConfig } from '../../src/config/types.js';
import { describeServerTarget, serverIdentity } from '../../src/policy/server-identity.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { hostConfig } from '../helpers/configs.js';
import { closeHosts, freshStateDir, openHost, toolSetServer } from './consent-helpers.js';

afterEach(closeHosts);

const TOOLS = [{ name: 'read', description: 'Reads a file.' }];

async function offered(stateDir: string, server: StdioServerConfig): Promise<{ names: string[]; notes: string[] }> {
  const notes: string[] = [];
  const host = await openHost({
    config: hostConfig([server]),
    stateDir,
    auditSink: false,
    onDiagnostic: (line) => notes.push(line),
  });
  return { names: host.catalog().entries.map((entry) => entry.name), notes };
}

describe('server identity', () => {
  it('a changed cwd withholds the tools approved for the old folder', async () => {
    const stateDir = freshStateDir();
    const original = toolSetServer('fs', TOOLS);
    expect((await offered(stateDir, original)).names).toEqual(['fs__read']);
    expect((await offered(stateDir, original)).names).toEqual(['fs__read']);

    const elsewhere = mkdtempSync(join(tmpdir(), 'mcp-host-other-folder-'));
    const moved = await offered(stateDir, { ...original, cwd: elsewhere });
    expect(moved.names).toEqual([]);
    expect(moved.notes.join('\n')).toMatch(/server fs now runs a different command line/);
  }, 60_000);

  it('a changed env value withholds the tools; the value itself is never stored', async () => {
    const stateDir = freshStateDir();
    const original = toolSetServer('fs', TOOLS, { env: { NODE_OPTIONS: '--max-old-space-size=256' } });
    expect((await offered(stateDir, original)).names).toEqual(['fs__read']);

    const changed = await offered(stateDir, {
      ...original,
      env: { ...original.env, NODE_OPTIONS: '--max-old-space-size=257' },
    });
    expect(changed.names).toEqual([]);
    expect(readFileSync(join(stateDir, 'trust.json'), 'utf8')).not.toContain('max-old-space-size');
  }, 60_000);

  it('an approval stored when identities covered only the command line carries over once', async () => {
    const stateDir = freshStateDir();
    const server = toolSetServer('fs', TOOLS);
    const store = TrustStore.inStateDir(stateDir);
    store.approveServer(server);
    // Rewrite the stored identity as it was hashed before cwd and env counted.
    const file = join(stateDir, 'trust.json');
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.servers.fs.identity = serverIdentity(server).previousHash;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify(data), { mode: 0o600 });

    expect(TrustStore.inStateDir(stateDir).checkServer(server)).toBe('known');
    expect(JSON.parse(readFileSync(file, 'utf8')).servers.fs.identity).toBe(serverIdentity(server).hash);
    expect(TrustStore.inStateDir(stateDir).checkServer({ ...server, cwd: tmpdir() })).toBe('changed');
  });

  it('the URL is a remote server’s identity', () => {
    const remote: ServerConfig = {
      name: 'api',
      transport: 'http',
      url: 'https://one.example/mcp',
      headers: {},
      trust: 'untrusted',
      timeoutMs: 1000,
      disabled: false,
      versionNegotiation: 'legacy',
    };
    expect(serverIdentity(remote).hash).not.toBe(serverIdentity({ ...remote, url: 'https://two.example/mcp' }).hash);
  });

  it('the command line for people hides each secret, also one that quoting rewrites', () => {
    const local: StdioServerConfig = {
      name: 'db',
      transport: 'stdio',
      command: 'db-server',
      args: ["--password=it's-secret", 'plain', '--token', 'tok\u001bxyz', 'tok\u001bxyz and more'],
      env: {},
      trust: 'untrusted',
      timeoutMs: 1000,
      disabled: false,
      cwd: '/srv',
      versionNegotiation: 'legacy',
    };
    const shown = describeServerTarget(local, ["it's-secret", 'tok\u001bxyz', '']);
    expect(shown).toBe("db-server --password=[redacted] plain --token [redacted] '[redacted] and more'");
    expect(shown).not.toContain('secret');
    expect(shown).not.toContain('xyz');
  });
});
