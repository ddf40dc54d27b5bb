/**
 * A state folder, trust store or audit file that someone else could change is refused with an error naming the
 * path and the fix; a trust store edited behind the host's back (as a local server could, to approve its own
 * calls) is reported at the next start, naming what changed, once.
 */
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { fixtureServerLaunch } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';
import { closeHosts, freshDirectory } from './fault-helpers.js';

afterEach(closeHosts);

const config = hostConfig([stdioServer('counter', [fixtureServerLaunch('counter').args[0]!])]);

/** Opens and closes a host on `stateDir`, returning its diagnostics; throws what opening throws. */
async function startOnce(stateDir: string, auditFile?: string): Promise<string[]> {
  const diagnostics: string[] = [];
  const host = await createHost({ config, stateDir, auditFile, onDiagnostic: (line) => diagnostics.push(line) });
  await host.close();
  return diagnostics;
}

describe('state paths others could change', () => {
  it('refuses a world-writable state folder from the CLI, naming it and the chmod that fixes it', async () => {
    const stateDir = await temporaryDirectory('mcp-host-state-');
    chmodSync(stateDir, 0o777);
    const file = await writeConfig({ mcpServers: {} });
    const result = await runCliInProcess(['tools', 'list', '--config', file], { stateDir, timeoutMs: 60_000 });
    // A setup error the message says how to fix, as a damaged trust store is: exit 2, no pointer to a stack trace.
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`mcp-host: the state folder ${stateDir} is writable by everyone (mode 777)`);
    expect(result.stderr).toContain(`chmod 700 ${stateDir}`);
    expect(result.stderr).not.toContain('MCP_HOST_DEBUG');
    expect(existsSync(join(stateDir, 'trust.json'))).toBe(false);
  }, 60_000);

  it('refuses a group-writable state folder', async () => {
    const stateDir = freshDirectory('mcp-host-state-');
    chmodSync(stateDir, 0o770);
    await expect(startOnce(stateDir)).rejects.toThrow(
      `the state folder ${stateDir} is writable by its group (mode 770)`,
    );
  });

  it('refuses a state folder that is a symbolic link to elsewhere', async () => {
    const elsewhere = freshDirectory('mcp-host-elsewhere-');
    const link = join(freshDirectory('mcp-host-link-'), 'state');
    symlinkSync(elsewhere, link);
    await expect(startOnce(link)).rejects.toThrow(`the state folder ${link} is a symbolic link (to ${elsewhere})`);
    expect(existsSync(join(elsewhere, 'trust.json'))).toBe(false);
  });

  it('refuses a trust store others may write, naming chmod 600', async () => {
    const stateDir = freshDirectory('mcp-host-state-');
    await startOnce(stateDir);
    const trustFile = join(stateDir, 'trust.json');
    chmodSync(trustFile, 0o666);
    await expect(startOnce(stateDir)).rejects.toThrow(
      `the trust store ${trustFile} is writable by everyone (mode 666), so others could change it. Make it private: chmod 600 ${trustFile}`,
    );
  });

  it('refuses an audit file that is a symbolic link, and leaves its target alone', async () => {
    const stateDir = freshDirectory('mcp-host-state-');
    const target = join(freshDirectory('mcp-host-target-'), 'precious.txt');
    writeFileSync(target, 'keep me\n');
    const link = join(stateDir, 'audit.jsonl');
    symlinkSync(target, link);
    await expect(startOnce(stateDir, link)).rejects.toThrow(`the audit log ${link} is a symbolic link (to ${target})`);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
  });
});

describe('a trust store changed since the host last wrote it', () => {
  it('is reported at the next start with what changed, once, and not after the host changed it itself', async () => {
    const stateDir = freshDirectory('mcp-host-state-');
    expect((await startOnce(stateDir)).join('\n')).not.toContain('changed outside mcp-host');

    // What a local server running as the user could do: approve its own tools for good.
    const trustFile = join(stateDir, 'trust.json');
    const data = JSON.parse(readFileSync(trustFile, 'utf8'));
    const server = data.servers.counter;
    server.alwaysAllowed.push('echo');
    server.tools.sneaky = { ...server.tools.echo, fingerprint: 'planted' };
    writeFileSync(trustFile, JSON.stringify(data));

    const second = (await startOnce(stateDir)).join('\n');
    expect(second).toContain(`the trust store ${trustFile} was changed outside mcp-host since it last wrote it`);
    expect(second).toContain('server "counter" tool "echo" is now always allowed');
    expect(second).toContain('server "counter" tool "sneaky" was added as approved');
    expect((await startOnce(stateDir)).join('\n')).not.toContain('changed outside mcp-host');

    // The host's own writes (a revocation through the store) are not reported.
    TrustStore.inStateDir(stateDir).revoke('counter');
    expect((await startOnce(stateDir)).join('\n')).not.toContain('changed outside mcp-host');
  }, 60_000);
});
