/**
 * Skills are the operator's text for the host's own model, listed in a system prompt no client of the gateway is
 * given. `mcp-host serve` offers its clients none of the skill tools: offered, any client could read every skill's
 * body and files, and one client's `load_skill` narrowed every other client's calls to that skill's `allowed-tools`,
 * for as long as the gateway ran. Two clients of a real gateway over Streamable HTTP.
 */
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';
import { writeSkill } from '../skills/skill-fixtures.js';

describe('a gateway whose config has skills', () => {
  let gateway: TokenGateway;
  beforeAll(async () => {
    const config = await writeFixtureServersConfig(
      { calculator: { example: 'calculator' } },
      { fields: { skills: ['skills'] } },
    );
    writeSkill(join(dirname(config), 'skills'), {
      name: 'lockdown',
      description: 'Runs nothing but what it names.',
      extra: 'allowed-tools: nothing__here',
      body: 'The operator’s own runbook.',
    });
    gateway = await startTokenGateway(config, await temporaryDirectory('mcp-host-gateway-no-skills-'));
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it('offers its clients no skill tool, and one client cannot narrow another’s calls', async () => {
    const first = await gateway.connectNamed('first-client');
    const second = await gateway.connectNamed('second-client');
    const names = (await first.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('calculator__add_numbers');
    expect(names.filter((name) => name.includes('skill'))).toEqual([]);

    const loaded = await first.callTool({ name: 'load_skill', arguments: { name: 'lockdown' } });
    expect(loaded.isError).toBe(true);
    expect(textOf(loaded)).not.toContain('runbook');
    const read = await first.callTool({ name: 'read_skill_file', arguments: { name: 'lockdown', path: 'SKILL.md' } });
    expect(read.isError).toBe(true);

    expect(textOf(await second.callTool({ name: 'calculator__add_numbers', arguments: { a: 1, b: 2 } }))).toBe('3');
  }, 60_000);
});
