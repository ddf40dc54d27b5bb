/** One server's unset environment variable makes only that server unavailable; the others run. */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, writeConfig } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.

async function configWithUnsetVariable(): Promise<string> {
  return writeConfig({
    mcpServers: {
      calculator: { command: process.execPath, args: [exampleServer('calculator')] },
      // As in the README's quick start: a remote server whose token comes from the environment.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config syntax under test.
      search: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${SEARCH_TOKEN}' } },
    },
  });
}

describe('a server whose config references an unset variable', () => {
  it('is reported failed with the variable named while the other servers run', async () => {
    const config = await configWithUnsetVariable();
    const call = await runCliInProcess(['tools', 'call', 'calculator__add_numbers', 'a=5', 'b=7', '--config', config], {
      timeoutMs: 90_000,
    });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim()).toBe('12');

    // `tools call` starts only the calculator; `servers` starts every server and reports the one it could not.
    const servers = await runCliInProcess(['servers', '--json', '--config', config], { timeoutMs: 90_000 });
    expect(servers.stderr).toMatch(
      /server "search" was not started: .*mcpServers\.search\.headers\.Authorization.*SEARCH_TOKEN/,
    );
    const statuses = JSON.parse(servers.stdout) as Array<{ name: string; state: string; lastError?: string }>;
    expect(statuses.find((server) => server.name === 'calculator')?.state).toBe('connected');
    const search = statuses.find((server) => server.name === 'search');
    expect(search?.state).toBe('failed');
    expect(search?.lastError).toContain('SEARCH_TOKEN');
  }, 200_000);
});
