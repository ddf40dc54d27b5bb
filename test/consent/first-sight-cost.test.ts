/**
 * First sight of a server with many tools: its whole review is saved in one write of the trust store, a stored
 * definition is bounded in size (the pin still covers all of it), and Ctrl-C / SIGTERM stop start-up instead of
 * waiting for the review to end. Real stdio servers listing 1,000 and 10,000 tools.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { MAX_STORED_DEFINITION_BYTES } from '../../src/policy/tool-definition.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import * as trustStoreFile from '../../src/policy/trust-store-file.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { cliPath, repoRoot } from '../helpers/project.js';
import { closeHosts, freshStateDir, openHost } from './consent-helpers.js';

// Every save of the trust store, counted (the real write still happens).
vi.mock('../../src/policy/trust-store-file.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/policy/trust-store-file.js')>();
  return { ...original, writeTrustStoreFile: vi.fn(original.writeTrustStoreFile) };
});
const writes = vi.mocked(trustStoreFile.writeTrustStoreFile);

const manyToolsPath = join(repoRoot, 'test', 'fixtures', 'consent', 'many-tools-server.mjs');

const children: ChildProcess[] = [];
afterEach(async () => {
  await closeHosts();
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  writes.mockClear();
});

function manyTools(env: Record<string, string>, trust: 'trusted' | 'untrusted' = 'untrusted') {
  return hostConfig([stdioServer('many', [manyToolsPath], { env, timeoutMs: 60_000, trust })]);
}

async function waitForFile(file: string, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${file}`);
    if (child && child.exitCode !== null) throw new Error(`mcp-host exited (${child.exitCode}) before ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('first sight of a server with many tools', () => {
  it('pins 1,000 tools with one write of the trust store', async () => {
    const stateDir = freshStateDir();
    const host = await openHost({ config: manyTools({ TOOL_COUNT: '1000' }), stateDir, auditSink: false });
    expect(host.catalog().entries).toHaveLength(1000);
    expect(writes).toHaveBeenCalledTimes(1);

    const store = TrustStore.inStateDir(stateDir);
    const [server] = store.list();
    expect(server?.tools).toHaveLength(1000);
    expect(server?.tools.every((tool) => tool.state === 'approved' && tool.approvedBy === 'first-sight')).toBe(true);
  }, 120_000);

  it('pins the tools of every server first seen at start-up with one write of the trust store', async () => {
    const stateDir = freshStateDir();
    const servers = ['one', 'two', 'three'].map((name) =>
      stdioServer(name, [manyToolsPath], { env: { TOOL_COUNT: '2' }, timeoutMs: 60_000 }),
    );
    const host = await openHost({ config: hostConfig(servers), stateDir, auditSink: false });
    expect(host.catalog().entries).toHaveLength(6);
    expect(writes).toHaveBeenCalledTimes(1);
    const pinned = TrustStore.inStateDir(stateDir).list();
    expect(pinned.map((server) => [server.name, server.tools.length])).toEqual([
      ['one', 2],
      ['three', 2],
      ['two', 2],
    ]);
  }, 120_000);

  it('keeps a bounded copy of a 1 MB definition, and its pin still covers every byte', async () => {
    const stateDir = freshStateDir();
    const host = await openHost({
      // Trusted: a megabyte is past the hidden-content scan, so on an untrusted server it would be withheld.
      config: manyTools({ TOOL_COUNT: '3', BIG_DESCRIPTION_KB: '1024' }, 'trusted'),
      stateDir,
      auditSink: false,
    });
    const big = host.catalog().resolve('many__tool_00001')!.tool;
    expect(big.description!.length).toBeGreaterThanOrEqual(1024 * 1024);

    const stored = TrustStore.inStateDir(stateDir)
      .list()[0]!
      .tools.find((tool) => tool.name === 'tool_00001')!;
    expect(Buffer.byteLength(JSON.stringify(stored.definition))).toBeLessThanOrEqual(MAX_STORED_DEFINITION_BYTES);
    expect(stored.definition.description).toMatch(/^\[not kept: \d+ bytes, sha256 [0-9a-f]{64}\]$/);
    expect(readFileSync(join(stateDir, 'trust.json')).length).toBeLessThan(64 * 1024);

    const store = TrustStore.inStateDir(stateDir);
    expect(store.checkTool('many', big)).toBe('approved');
    // One character changed at the very end of the megabyte is still a changed definition.
    expect(store.checkTool('many', { ...big, description: `${big.description!.slice(0, -1)}!` })).toBe('changed');
  }, 120_000);

  it('an aborted start-up rejects and closes the servers it started', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted by SIGTERM'));
    await expect(
      createHost({
        config: manyTools({ TOOL_COUNT: '10' }),
        stateDir: freshStateDir(),
        auditSink: false,
        signal: controller.signal,
      }),
    ).rejects.toThrow('interrupted by SIGTERM');
  }, 60_000);

  it('SIGTERM during the review of 10,000 tools (one of 1 MB) stops the CLI with 143', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcp-host-first-sight-'));
    const listed = join(directory, 'listed');
    const config = join(directory, 'mcp-host.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          many: {
            command: process.execPath,
            args: [manyToolsPath],
            env: { TOOL_COUNT: '10000', BIG_DESCRIPTION_KB: '1024', LISTED_FILE: listed },
            timeoutMs: 120_000,
          },
        },
      }),
    );
    const child = spawn(process.execPath, [cliPath, 'tools', 'list', '--config', config], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? '', HOME: directory, MCP_HOST_STATE_DIR: join(directory, 'state') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Once its stderr is read to the end, not only once it has exited.
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

    await waitForFile(listed, child);
    const signalledAt = performance.now();
    child.kill('SIGTERM');
    const code = await exit;
    console.log(
      `SIGTERM during the review of 10,000 tools: exited ${code} after ${Math.round(performance.now() - signalledAt)} ms`,
    );
    expect(code).toBe(143);
    expect(stderr).toContain('mcp-host: SIGTERM');
  }, 120_000);
});
