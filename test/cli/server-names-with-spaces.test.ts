/**
 * A server named as its own README writes it ("MCP SQLite Server"): its tools are offered as
 * `MCP_SQLite_Server__tool`, spaces turned into `_` and no hash suffix, and such a name can be called directly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';

let config: string;

beforeAll(async () => {
  config = await writeConfig({
    mcpServers: {
      'MCP SQLite Server': {
        command: process.execPath,
        args: [fixtureServer('slow-start.mjs')],
        env: { START_DELAY_MS: '0' },
        trust: 'trusted',
      },
    },
  });
});

describe('a server name with spaces', () => {
  it('becomes MCP_SQLite_Server__ in tool names, without a hash, and such a tool can be called', async () => {
    const listed = await runCliInProcess(['tools', 'list', '--json', '--config', config], { timeoutMs: 60_000 });
    expect(listed.code, listed.stderr).toBe(0);
    const tools = JSON.parse(listed.stdout) as Array<{ name: string; server: string }>;
    expect(tools.map((tool) => tool.name)).toEqual(['MCP_SQLite_Server__ping']);

    const called = await runCliInProcess(['tools', 'call', 'MCP_SQLite_Server__ping', '--config', config], {
      timeoutMs: 60_000,
    });
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout.trim()).toBe('pong');
  }, 120_000);
});
