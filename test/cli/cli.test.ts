/** The command line as scripts use it: exit codes, stdout vs stderr, typed key=value arguments. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory } from '../helpers/project.js';

describe('mcp-host CLI', () => {
  it('exits 2 with the file, key path and expectation on a config error', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'bad.json');
    await writeFile(file, JSON.stringify({ mcpServers: { calc: { command: 'node', timeoutMs: 'soon' } } }));
    const result = await runCliInProcess(['tools', 'list', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain('mcpServers.calc.timeoutMs');
    expect(result.stdout).toBe('');
  });

  it('exits 2 naming the line and column of bad JSON', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'broken.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "a": { "command": "node" "args": [] }\n  }\n}\n');
    const result = await runCliInProcess(['servers', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.json:3:\d+: /);
  });

  // A run with no model configured (exit 2, naming every way to configure one): test/providers/integration/
  // cli-provider-runs.test.ts, which also checks that nothing reached a provider.

  it('exits 2 on an unknown option', async () => {
    const result = await runCliInProcess(['run', '--no-such-flag', 'x']);
    expect(result.code).toBe(2);
  });

  it('calls a tool directly with key=value arguments typed by its schema', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess(['tools', 'call', 'calculator__multiply', 'a=6', 'b=7', '--config', config]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('42');
  });

  it('takes --args JSON and prints the raw result with --json', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess([
      'tools',
      'call',
      'calculator__add_numbers',
      '--args',
      '{"a":5,"b":7}',
      '--json',
      '--config',
      config,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      outcome: 'ok',
      result: { content: [{ type: 'text', text: '12' }] },
    });
  });

  it('rejects a value that does not fit the schema, and an unknown tool, with exit 2', async () => {
    const config = await calculatorConfig();
    const wrongType = await runCliInProcess([
      'tools',
      'call',
      'calculator__add_numbers',
      'a=five',
      'b=7',
      '--config',
      config,
    ]);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain('a=five: expected a number');
    const unknown = await runCliInProcess(['tools', 'call', 'calculator__add', 'a=1', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('calculator__add_numbers');
    // Nothing close: where to find the names instead.
    const unrelated = await runCliInProcess(['tools', 'call', 'weather', '--config', config]);
    expect(unrelated.code).toBe(2);
    expect(unrelated.stderr).toContain('unknown tool "weather"; `mcp-host tools list` lists the tools there are');
  });

  it('exits 1 when a direct call ends in an error result', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess(['tools', 'call', 'calculator__divide', 'a=1', 'b=0', '--config', config]);
    expect(result.code).toBe(1);
    // A failed call's text goes to stderr.
    expect(result.stderr).toContain('division by zero');
  });

  it('finds mcp-host.json here once approved; lists its tools as JSON and shows server state', async () => {
    const config = await calculatorConfig();
    const where = { cwd: join(config, '..'), stateDir: await temporaryDirectory('mcp-host-state-') };
    expect((await runCliInProcess(['trust', 'config'], where)).code).toBe(0);
    const tools = await runCliInProcess(['tools', 'list', '--json'], where);
    expect(tools.code, tools.stderr).toBe(0);
    const list = JSON.parse(tools.stdout) as Array<{ name: string; server: string }>;
    expect(list.map((tool) => tool.name)).toContain('calculator__add_numbers');
    const servers = await runCliInProcess(['servers', '--json'], where);
    expect(JSON.parse(servers.stdout)).toEqual([
      expect.objectContaining({
        name: 'calculator',
        state: 'connected',
        protocolVersion: expect.any(String),
        toolCount: 4,
      }),
    ]);
  });
});
