/**
 * A server whose command line changed: one line says so (not one per tool), a direct call says why it is refused,
 * and the approve command suggested works as printed, from any folder.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';

describe('a server whose command line changed', () => {
  it('is reported once, refused with the reason, and approved by the exact command suggested', async () => {
    const stateDir = await temporaryDirectory('mcp-host-state-');
    const config = await writeConfig({
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')] } },
    });
    const first = await runCliInProcess(['tools', 'list', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(first.stdout).toContain('counter__echo');

    const edited = JSON.parse(await readFile(config, 'utf8'));
    edited.mcpServers.counter.args.push('--changed');
    await writeFile(config, JSON.stringify(edited));

    const listed = await runCliInProcess(['tools', 'list', '--config', config], { stateDir, timeoutMs: 60_000 });
    const notices = listed.stderr.split('\n').filter((line) => line.includes('different command line'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('3 tool(s)');
    const suggested = /(mcp-host trust approve counter --config \S+)/.exec(notices[0] ?? '')?.[1];
    expect(suggested).toBeDefined();

    const refused = await runCliInProcess(['tools', 'call', 'counter__echo', 'text=hi', '--config', config], {
      stateDir,
      timeoutMs: 60_000,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'counter__echo is withheld because the server counter now runs a different command line or URL than the one you approved; approve it with: mcp-host trust approve counter',
    );
    expect(refused.stderr.split('counter__echo is withheld')).toHaveLength(2);

    const offline = await runCliInProcess(['trust', '-c', config, '--offline'], { stateDir, timeoutMs: 60_000 });
    expect(offline.code).toBe(0);

    // The command as printed, run from another folder.
    const approved = await runCliInProcess(suggested!.split(' ').slice(1), {
      stateDir,
      cwd: tmpdir(),
      timeoutMs: 60_000,
    });
    expect(approved.code).toBe(0);
    const called = await runCliInProcess(['tools', 'call', 'counter__echo', 'text=hi', '--config', config], {
      stateDir,
      timeoutMs: 60_000,
    });
    expect(called.code).toBe(0);
    expect(called.stdout.trim()).toBe('hi');
  }, 180_000);
});
