/**
 * Tools that require MCP tasks (`execution.taskSupport: "required"`) cannot be run by this host: they are withheld,
 * with the reason on stderr, in `tools list` and in `servers`, and `tools call` refuses them without calling the
 * server. A tool where tasks are optional is offered and runs as a plain call.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';

let config: string;
const REASON = 'requires MCP tasks (execution.taskSupport "required"), which this host does not run';

beforeAll(async () => {
  config = await writeConfig({
    mcpServers: { tasks: { command: process.execPath, args: [fixtureServer('task-tools.mjs')], trust: 'trusted' } },
  });
});

describe('tools that require MCP tasks', () => {
  it('are withheld with the reason in tools list and servers', async () => {
    const listed = await runCliInProcess(['tools', 'list', '--config', config], { timeoutMs: 60_000 });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('tasks__echo  Answers its text');
    expect(listed.stdout).toContain(`tasks__research  [withheld: it ${REASON}]`);
    expect(listed.stderr).toContain(`server "tasks": its tool "research" is withheld: it ${REASON}`);

    const json = await runCliInProcess(['tools', 'list', '--json', '--config', config], { timeoutMs: 60_000 });
    const tools = JSON.parse(json.stdout) as Array<{ name: string; withheld?: string }>;
    expect(tools.find((tool) => tool.name === 'tasks__research')?.withheld).toContain(REASON);
    expect(tools.find((tool) => tool.name === 'tasks__echo')?.withheld).toBeUndefined();

    const servers = await runCliInProcess(['servers', '--config', config], { timeoutMs: 60_000 });
    expect(servers.code, servers.stderr).toBe(0);
    expect(servers.stdout).toContain(`  withheld tasks__research: it ${REASON}`);
  }, 180_000);

  it('are refused by tools call without reaching the server; optional ones run', async () => {
    const refused = await runCliInProcess(['tools', 'call', 'tasks__research', 'topic=x', '--config', config], {
      timeoutMs: 60_000,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`tasks__research: it ${REASON}, so it cannot be called.`);
    expect(refused.stderr.split('cannot be called')).toHaveLength(2);

    const echoed = await runCliInProcess(['tools', 'call', 'tasks__echo', 'text=hello', '--config', config], {
      timeoutMs: 60_000,
    });
    expect(echoed.code, echoed.stderr).toBe(0);
    expect(echoed.stdout.trim()).toBe('hello');
  }, 180_000);
});
