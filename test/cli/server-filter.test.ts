/**
 * Starting only the servers a command needs: `tools call` starts the server its tool belongs to, and `--server NAME`
 * limits `tools list`, `servers`, `resources list` and `prompts list` to the named servers.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, runCli, temporaryDirectory } from '../helpers/project.js';

const flexibleServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'host', 'flexible-server.mjs'));

/** A config with the flexible server and a second server that leaves a marker file when it is started. */
async function twoServers(): Promise<{ file: string; marker: string }> {
  const directory = await temporaryDirectory();
  const marker = join(directory, 'other-started');
  const file = join(directory, 'mcp-host.json');
  const leaveMarker = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
  await writeFile(
    file,
    JSON.stringify({
      mcpServers: {
        flex: { command: process.execPath, args: [flexibleServer] },
        other: { command: process.execPath, args: ['-e', leaveMarker] },
      },
    }),
  );
  return { file, marker };
}

describe('starting only the servers a command needs', { timeout: 120_000 }, () => {
  it('servers shows a disabled server as disabled, and does not start it', async () => {
    const { file, marker } = await twoServers();
    const config = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, object> };
    config.mcpServers.other = { ...config.mcpServers.other, disabled: true };
    await writeFile(file, JSON.stringify(config));
    const result = await runCliInProcess(['servers', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('other: disabled (stdio)');
    expect(existsSync(marker)).toBe(false);
  });

  it('tools call starts only the server of the tool', async () => {
    const { file, marker } = await twoServers();
    const result = await runCliInProcess(['tools', 'call', 'flex__pid', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(Number(result.stdout.trim())).toBeGreaterThan(0);
    expect(existsSync(marker)).toBe(false);
    expect(result.stderr).not.toContain('"other"');
  });

  it('tools call refuses --args that are no JSON object before it starts any server', async () => {
    const { file, marker } = await twoServers();
    const [broken, array] = await Promise.all([
      runCli(['tools', 'call', 'other__x', '--args', '{"a":1', '--config', file]),
      runCli(['tools', 'call', 'other__x', '--args', '[1]', '--config', file]),
    ]);
    expect(broken.code, broken.stderr).toBe(2);
    expect(broken.stderr).toMatch(/^mcp-host: --args is not valid JSON: .+\n$/);
    expect(array.code, array.stderr).toBe(2);
    expect(array.stderr).toBe('mcp-host: --args must be a JSON object\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('does not warn that a rule for a server it left out matches no tool, but does for a misspelt one', async () => {
    const { file } = await twoServers();
    const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    config.permissions = { allow: ['other__read'], ask: ['flx__pid'], deny: ['other__*'] };
    await writeFile(file, JSON.stringify(config));
    const result = await runCliInProcess(['tools', 'call', 'flex__pid', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('other__');
    expect(result.stderr).toContain('permissions.ask pattern "flx__pid" matches no tool');
  });

  it('does not warn that a rule for a server that failed to start matches no tool, as its tools are not known', async () => {
    const { file } = await twoServers();
    const config = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    config.mcpServers.other = { command: process.execPath, args: ['-e', 'process.exit(3)'] };
    Object.assign(config, { permissions: { allow: ['other__read'], ask: ['flx__pid'], deny: ['other__*'] } });
    await writeFile(file, JSON.stringify(config));
    const result = await runCliInProcess(['tools', 'list', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/server "other" failed to start/);
    expect(result.stderr).not.toContain('other__');
    expect(result.stderr).toContain('permissions.ask pattern "flx__pid" matches no tool');
  });

  it("knows a rule for a server it left out whose name holds __ as that server's", async () => {
    const { file, marker } = await twoServers();
    const config = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    config.mcpServers = { flex: config.mcpServers.flex, team__notes: config.mcpServers.other };
    Object.assign(config, {
      permissions: { allow: ['team__notes__read'], deny: ['team__notes__*'], ask: ['flx__pid'] },
    });
    await writeFile(file, JSON.stringify(config));
    const result = await runCliInProcess(['tools', 'call', 'flex__pid', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(result.stderr).not.toContain('team__notes');
    expect(result.stderr).toContain('permissions.ask pattern "flx__pid" matches no tool');
  });

  it('tools list --server NAME lists and starts only that server', async () => {
    const { file, marker } = await twoServers();
    const result = await runCliInProcess(['tools', 'list', '--server', 'flex', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('flex__pid');
    expect(existsSync(marker)).toBe(false);
  });

  // The real process: the one run of servers, resources and prompts as a process of its own.
  it('servers, resources list and prompts list take --server too', async () => {
    const { file, marker } = await twoServers();
    const servers = await runCli(['servers', '--json', '--server', 'flex', '--config', file]);
    expect(servers.code, servers.stderr).toBe(0);
    expect((JSON.parse(servers.stdout) as Array<{ name: string }>).map((server) => server.name)).toEqual(['flex']);
    for (const command of [
      ['resources', 'list'],
      ['prompts', 'list'],
    ]) {
      const result = await runCli([...command, '--server', 'flex', '--config', file]);
      expect(result.stderr).not.toContain('"other"');
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('exits 2 naming an unknown --server', async () => {
    const { file, marker } = await twoServers();
    const result = await runCliInProcess(['tools', 'list', '--server', 'flx', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcp-host: no server "flx"');
    expect(result.stderr).toContain('flex');
    expect(existsSync(marker)).toBe(false);
  });

  it('says no config file was found, and where it looked, for a --server given without one', async () => {
    const directory = await temporaryDirectory();
    const result = await runCli(['servers', '--server', 'calc'], { cwd: directory });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mcp-host: no server "calc": no config file found (looked for mcp-host.json and .mcp.json in ${directory}); pass --config FILE\n`,
    );
  });
});
