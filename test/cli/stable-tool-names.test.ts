/**
 * A tool's name is decided once and stays: adding a server whose tools would take the same names (`mcp-host add`)
 * leaves the first server's names as they were, and a call by that name still reaches the first server. The new
 * server's clashing tools take the hash suffix, and are reviewed (approved at first sight) under that same name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';

let directory: string;
let config: string;
let stateDir: string;

interface ListedTool {
  name: string;
  server: string;
  tool: string;
}

async function listTools(): Promise<ListedTool[]> {
  const result = await runCliInProcess(['tools', 'list', '--json', '--config', config], {
    stateDir,
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListedTool[];
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  stateDir = await temporaryDirectory('mcp-host-state-');
  config = join(directory, 'mcp-host.json');
  const server = { command: process.execPath, args: [fixtureServer('slow-start.mjs')], env: { START_DELAY_MS: '0' } };
  writeFileSync(config, JSON.stringify({ mcpServers: { 'my server': { ...server, trust: 'trusted' } } }, null, 2));
});

describe('adding a server whose tool names clash', () => {
  it("never renames the first server's tools", async () => {
    const before = await listTools();
    expect(before).toEqual([expect.objectContaining({ name: 'my_server__ping', server: 'my server', tool: 'ping' })]);

    const added = await runCliInProcess(
      [
        'add',
        'my_server',
        '--config',
        config,
        '-e',
        'START_DELAY_MS=0',
        '--',
        process.execPath,
        fixtureServer('slow-start.mjs'),
      ],
      { stateDir, timeoutMs: 60_000 },
    );
    expect(added.code, added.stderr).toBe(0);

    const after = await listTools();
    const byServer = new Map(after.map((tool) => [tool.server, tool.name]));
    expect(byServer.get('my server')).toBe('my_server__ping');
    expect(byServer.get('my_server')).toMatch(/^my_server__ping_[0-9a-f]{6}$/);

    const audit = join(directory, 'audit.jsonl');
    const called = await runCliInProcess(['tools', 'call', 'my_server__ping', '--config', config], {
      stateDir,
      env: { MCP_HOST_AUDIT_FILE: audit },
      timeoutMs: 60_000,
    });
    expect(called.code, called.stderr).toBe(0);
    const calls = (await auditRecords(directory)).filter((record) => record.type === 'tool-call');
    expect(calls.some((record) => record.server === 'my server')).toBe(true);
    expect(calls.map((record) => record.server)).toEqual(['my server']);

    // The added server's tool is reviewed under the name the catalog gives it, never under the plain name the
    // first server's tool holds: its first-sight approval names it as `tools list` does.
    const reviewed = (await Promise.all([stateDir, directory].map((folder) => auditRecords(folder))))
      .flat()
      .filter((record) => record.type === 'trust-change' && record.change === 'tool-approved');
    const detailsOf = (server: string) =>
      reviewed.filter((record) => record.server === server).map((record) => record.detail);
    expect(detailsOf('my_server')).toEqual([`First sight of ${byServer.get('my_server')}.`]);
    expect(detailsOf('my server')).toEqual(['First sight of my_server__ping.']);
  }, 180_000);
});
