/**
 * A server whose `tools/list` names one tool twice: the first definition is kept, one warning names the server,
 * and `run`, `tools list` and `servers` keep working — for that server's other tools and for every other server.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { writeConfig } from '../helpers/project.js';
import { faultFixture } from './fault-helpers.js';

async function configWithDuplicates(): Promise<string> {
  const file = await writeConfig({
    mcpServers: {
      twice: { command: process.execPath, args: [faultFixture('hostile-server.mjs'), 'duplicate'] },
      counter: { command: process.execPath, args: [fixtureServerPath('counter')] },
    },
    permissions: { allow: ['twice__*', 'counter__*'] },
    model: 'scripted:./script.json',
  });
  await writeFile(
    join(dirname(file), 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'both',
          turns: [
            {
              toolCalls: [
                { name: 'twice__echo', arguments: { text: 'one' } },
                { name: 'twice__other', arguments: { text: 'two' } },
                { name: 'counter__echo', arguments: { text: 'three' } },
              ],
            },
            { text: 'done: {{lastToolResult}}' },
          ],
        },
      ],
    }),
  );
  return file;
}

const warning = /server "twice" lists the tool "echo" more than once; the first definition is used/g;

describe('a server that lists one tool twice', () => {
  it('keeps the first definition and warns once; tools list, servers and run carry on', {
    timeout: 90_000,
  }, async () => {
    const config = await configWithDuplicates();

    const tools = await runCliInProcess(['tools', 'list', '--json', '--config', config]);
    expect(tools.stderr).not.toContain('listed twice');
    expect(tools.code).toBe(0);
    const names = (JSON.parse(tools.stdout) as Array<{ name: string; description?: string }>).map((tool) => tool.name);
    expect(names.filter((name) => name === 'twice__echo')).toHaveLength(1);
    expect(names).toEqual(expect.arrayContaining(['twice__echo', 'twice__other', 'counter__echo']));
    expect(tools.stderr.match(warning)).toHaveLength(1);

    const servers = await runCliInProcess(['servers', '--json', '--config', config]);
    expect(servers.code).toBe(0);
    const statuses = JSON.parse(servers.stdout) as Array<{ name: string; state: string; toolCount?: number }>;
    expect(statuses.find((status) => status.name === 'twice')).toMatchObject({ state: 'connected', toolCount: 2 });
    expect(statuses.find((status) => status.name === 'counter')).toMatchObject({ state: 'connected' });

    const run = await runCliInProcess(['run', '--config', config, 'call both']);
    expect(run.stderr).not.toContain('listed twice');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('done:');
    expect(run.stderr.match(warning)).toHaveLength(1);

    const call = await runCliInProcess(['tools', 'call', 'twice__echo', 'text=hello', '--config', config]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('first echo: hello');
  });
});
