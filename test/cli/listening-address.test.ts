/**
 * The commands that listen (`ui`, `serve --http`, `mock-llm`) say where alike, as the real CLI: the address alone on
 * stdout, for a script to read, and one sentence on stderr naming what answers there. `serve` over stdio prints
 * nothing on stdout, its protocol channel.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot, runCli, type StartedCli, startCli, writeConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

const started: StartedCli[] = [];

afterEach(() => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});

describe('a command that listens', () => {
  it('prints its address alone on stdout and says what serves there on stderr, as the others do', async () => {
    const config = await writeConfig({ mcpServers: {} });
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    const commands = [
      { args: ['ui', '--config', config], what: 'the web UI', path: /^\/\?token=[\w-]+$/ },
      { args: ['serve', '--http', '0', '--config', config], what: 'the gateway', path: /^\/mcp$/ },
      { args: ['mock-llm', '--script', script], what: 'the mock LLM; recorded requests: GET ', path: /^\/$/ },
    ];
    const clis = commands.map(({ args }) => startCli(args));
    started.push(...clis);
    const stdio = runCli(['serve', '--config', config], { input: '', timeoutMs: 60_000 });
    for (const [index, cli] of clis.entries()) {
      const { args, what, path } = commands[index]!;
      await waitUntil(
        () => cli.output().stderr.includes('Ctrl-C to stop') || cli.child.exitCode !== null,
        `mcp-host ${args[0]} to listen`,
        60_000,
      );
      const { stdout, stderr } = cli.output();
      const url = stdout.split('\n')[0]!;
      expect(stdout, args[0]).toBe(`${url}\n`);
      const address = new URL(url);
      expect(address.origin, args[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(`${address.pathname}${address.search}`, args[0]).toMatch(path);
      expect(stderr, args[0]).toContain(`mcp-host: serving ${url} (${what}`);
      expect(stderr.trimEnd().endsWith('); Ctrl-C to stop'), args[0]).toBe(true);
      // Something answers there: the address is where it listens, not only a line.
      expect((await fetch(address.origin)).status, args[0]).toBeGreaterThan(0);
    }
    for (const cli of clis) cli.child.kill('SIGINT');
    await Promise.all(clis.map((cli) => cli.closed));
    const overStdio = await stdio;
    expect(overStdio.stdout).toBe('');
    expect(overStdio.stderr).not.toContain('serving');
  }, 90_000);
});
