/**
 * `mcp-host connect` keeps the servers up across calls: a stateful server sees every call of the session in one
 * process, and a bad line is an error on stderr, not the end of the session.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

describe('mcp-host connect', () => {
  it('keeps one server process across calls and carries on after a bad line', async () => {
    const config = await writeConfig({
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    });
    const input = [
      'tools echo',
      'call counter__echo text=first',
      'call counter__nope',
      'call counter__echo {"text": "second"}',
      'bogus',
      'call counter__stats',
      'resources',
      'prompts',
      'exit',
      'call counter__echo text=never',
    ].join('\n');
    const result = await runCliInProcess(['connect', '--config', config], { input, timeoutMs: 60_000 });
    expect(result.stderr).toContain('unknown tool "counter__nope"; `tools` lists the tools there are');
    expect(result.stderr).toContain('unknown command "bogus"');
    // An empty listing says which servers were asked, as resources list and prompts list do.
    expect(result.stderr).toContain('mcp-host: the server "counter" offers no resources');
    expect(result.stderr).toContain('mcp-host: the server "counter" offers no prompts');
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^counter__echo/);
    expect(lines).toContain('first');
    expect(lines).toContain('second');
    // Both echo calls reached the same server process: its own count says so.
    const stats = JSON.parse(lines.find((line) => line.startsWith('{')) ?? '{}') as { calls?: number };
    expect(stats.calls).toBe(2);
    expect(result.stdout).not.toContain('never');
    expect(result.code).toBe(0);
  }, 90_000);

  it('names the command a misspelt word was probably meant to be', async () => {
    const config = await writeConfig({
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    });
    const result = await runCli(['connect', '--config', config], {
      input: 'cal counter__echo text=first\nbogus\n',
      timeoutMs: 60_000,
    });
    expect(result.stderr).toContain(
      'mcp-host: unknown command "cal" — did you mean call? (type help for the commands)\n',
    );
    expect(result.stderr).toContain('mcp-host: unknown command "bogus" (type help for the commands)\n');
    expect(result.code, result.stderr).toBe(0);
  }, 90_000);

  it('starts only the servers --server names, as the listings do', async () => {
    const directory = await temporaryDirectory();
    const marker = join(directory, 'other-started');
    const config = await writeConfig({
      mcpServers: {
        counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' },
        other: {
          command: process.execPath,
          args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`],
        },
      },
    });
    const result = await runCliInProcess(['connect', '--server', 'counter', '--config', config], {
      input: 'servers\n',
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('counter: connected (stdio)\n');
    expect(existsSync(marker)).toBe(false);
    const unknown = await runCliInProcess(['connect', '--server', 'countr', '--config', config], { input: '' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no server "countr"');
  }, 90_000);

  // The real process: the command's one run as a process of its own.
  it('exits 1 when a call in the session ended in an error', async () => {
    const config = await writeConfig({
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    });
    const result = await runCli(['connect', '--config', config], {
      input: 'call counter__sleep ms=-5\n',
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('mcp-host: the call was refused: its arguments are not valid');
  }, 90_000);
});
