/**
 * The Skills page's data: which skills a conversation loaded, read from its history; and the command that reviews a
 * withheld skill, given as a field of its own, never one that approves it: the page shows none of its files.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import type { Message } from '../../src/providers/types.js';
import { SkillPins } from '../../src/skills/skill-pins.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { loadedSkills, skillsView } from '../../src/web/skills-view.js';
import { writeConfig } from '../helpers/project.js';
import { writeSkill } from '../skills/skill-fixtures.js';

const call = (id: string, name: string, argumentsText: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id, name, argumentsText }],
});
const result = (callId: string, isError: boolean): Message => ({
  role: 'tool',
  results: [{ callId, toolName: 'load_skill', content: [{ type: 'text', text: 'body' }], isError }],
});

describe('the skills a conversation loaded', () => {
  it('are the load_skill calls that succeeded, first load first, each once', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Write the stock report' }] },
      call('1', 'load_skill', '{"name":"stock-report"}'),
      result('1', false),
      call('2', 'load_skill', '{"name":"deploy"}'),
      result('2', true),
      call('3', 'read_skill_file', '{"name":"notes","path":"a.md"}'),
      result('3', false),
      call('4', 'load_skill', 'not json'),
      result('4', false),
      call('5', 'load_skill', '{"name":"stock-report"}'),
      result('5', false),
      call('6', 'load_skill', '{"name":"notes"}'),
      result('6', false),
    ];
    expect(loadedSkills(history)).toEqual(['stock-report', 'notes']);
    expect(loadedSkills([])).toEqual([]);
  });
});

describe('a withheld skill on the Skills page', () => {
  it('comes with the command that reviews it, not one that approves it, naming no machine path', async () => {
    const config = await writeConfig({ mcpServers: {} });
    const folder = writeSkill(join(dirname(config), 'skills'), { name: 'deploy', description: 'Deploy the app.' });
    const stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-state-'));
    SkillPins.inStateDir(stateDir, { scope: config }).approve('deploy', `sha256:${'0'.repeat(64)}`, folder, 'user');
    const host = await createHost({
      config,
      provider: createScriptedProvider({ scenarios: [] }),
      stateDir,
      auditSink: false,
      onDiagnostic: () => {},
    });
    try {
      const view = skillsView(host, []);
      const review = `mcp-host skills show deploy --state-dir ${stateDir}`;
      expect(view.withheld.map((skill) => skill.reviewCommand)).toEqual([review]);
      expect(view.withheld[0]!.reason).toBe(
        `skill "deploy" is withheld: its files changed since it was approved (skills/deploy); review it with \`${review}\`, which prints the command that approves what it shows`,
      );
      // The page shows nothing of the skill's files, so an approve command there would approve what nobody reviewed.
      expect(JSON.stringify(view)).not.toContain('trust approve');
      expect(JSON.stringify(view)).not.toContain(host.skills().withheld[0]!.skill.fingerprint);
      expect(JSON.stringify(view)).not.toContain(dirname(config));
    } finally {
      await host.close();
    }
  });
});

describe('a skill that could not be read, on the Skills page', () => {
  it('names its folder relative to the config, also when the folder’s name holds a line break', async () => {
    const config = await writeConfig({ mcpServers: {} });
    writeSkill(join(dirname(config), 'skills'), { name: 'bad\nname', description: 'Not named as its folder.' });
    const host = await createHost({
      config,
      provider: createScriptedProvider({ scenarios: [] }),
      stateDir: mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
      auditSink: false,
      onDiagnostic: () => {},
    });
    try {
      const { problems } = skillsView(host, []);
      expect(problems.map((problem) => problem.folder)).toEqual(['skills/bad\nname']);
      expect(problems[0]!.message.startsWith('skills/bad\nname/SKILL.md: ')).toBe(true);
      expect(JSON.stringify(problems)).not.toContain(dirname(config));
    } finally {
      await host.close();
    }
  });
});
