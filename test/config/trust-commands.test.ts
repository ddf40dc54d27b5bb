/**
 * The approve commands the host prints: they name the config by its path whenever there is one, and a shell reads
 * each back as the same words however odd the path (spaces, quotes, non-ASCII, control characters).
 */
import { describe, expect, it } from 'vitest';
import { skillsShowCommand, trustApproveCommand, trustConfigCommand } from '../../src/config/trust-commands.js';
import { hasControlCodes } from '../../src/text/strip-control-codes.js';
import { wordsAsBashReadsThem } from '../helpers/shell-words.js';

const ODD_PATHS = [
  '/home/ana/my project/mcp-host.json',
  "/home/o'brien/mcp-host.json",
  '/home/zoë/проекты/設定 "main"/mcp-host.json',
  '/tmp/$HOME `id` \\n *.json',
  '/tmp/line\nbreak\u001b[31m\u202eevil.json',
  '/tmp/-dash/mcp-host.json',
];

describe('the approve commands', () => {
  it('name the config with --config when there is one, and only then', () => {
    expect(trustApproveCommand({ server: 'calc' })).toBe('mcp-host trust approve calc');
    expect(trustApproveCommand({ server: 'calc', tool: 'add' }, { configFile: '/srv/app/mcp-host.json' })).toBe(
      'mcp-host trust approve calc add --config /srv/app/mcp-host.json',
    );
    expect(trustApproveCommand({ skill: 'deploy' }, { configFile: '/srv/app/mcp-host.json' })).toBe(
      'mcp-host trust approve skill:deploy --config /srv/app/mcp-host.json',
    );
    expect(trustConfigCommand('/srv/app/.mcp.json')).toBe('mcp-host trust config /srv/app/.mcp.json');
  });

  it('name a state folder chosen for the run with --state-dir, and only then', () => {
    const place = { configFile: '/srv/app/mcp-host.json', stateDir: '/srv/state' };
    expect(trustApproveCommand({ server: 'calc', tool: 'add' }, place)).toBe(
      'mcp-host trust approve calc add --config /srv/app/mcp-host.json --state-dir /srv/state',
    );
    expect(trustApproveCommand({ skill: 'deploy' }, { stateDir: '/srv/state' })).toBe(
      'mcp-host trust approve skill:deploy --state-dir /srv/state',
    );
    expect(trustConfigCommand('/srv/app/.mcp.json', { stateDir: '/srv/state' })).toBe(
      'mcp-host trust config /srv/app/.mcp.json --state-dir /srv/state',
    );
    expect(trustConfigCommand('/srv/app/.mcp.json', {})).toBe('mcp-host trust config /srv/app/.mcp.json');
  });

  it('name the same config and state folder in the command that shows a skill to review', () => {
    expect(skillsShowCommand('deploy')).toBe('mcp-host skills show deploy');
    expect(skillsShowCommand('deploy', { configFile: '/srv/app/mcp-host.json', stateDir: '/srv/state' })).toBe(
      'mcp-host skills show deploy --config /srv/app/mcp-host.json --state-dir /srv/state',
    );
    expect(skillsShowCommand("it's", { configFile: '/srv/my app/mcp-host.json' })).toBe(
      "mcp-host skills show 'it'\\''s' --config '/srv/my app/mcp-host.json'",
    );
  });

  it('quote every word so that a shell reads back the same words', () => {
    const cases = ODD_PATHS.map((file) => ({
      words: ['mcp-host', 'trust', 'approve', "my server's", 'tool name', '--config', file, '--state-dir', `${file}.d`],
      line: trustApproveCommand(
        { server: "my server's", tool: 'tool name' },
        { configFile: file, stateDir: `${file}.d` },
      ),
    }));
    cases.push({ words: ['mcp-host', 'trust', 'config', ''], line: trustConfigCommand('') });
    cases.push({
      words: ['mcp-host', 'skills', 'show', "my skill's", '--config', ODD_PATHS[2]!, '--state-dir', ODD_PATHS[3]!],
      line: skillsShowCommand("my skill's", { configFile: ODD_PATHS[2]!, stateDir: ODD_PATHS[3]! }),
    });
    cases.push({
      words: ['mcp-host', 'trust', 'config', ODD_PATHS[1]!, '--state-dir', ODD_PATHS[4]!],
      line: trustConfigCommand(ODD_PATHS[1]!, { stateDir: ODD_PATHS[4]! }),
    });
    const read = wordsAsBashReadsThem(cases.map((entry) => entry.line));
    expect(read).toEqual(cases.map((entry) => entry.words));
  });

  it('never print a control, direction or invisible character raw', () => {
    const line = trustApproveCommand({ server: 'calc' }, { configFile: ODD_PATHS[4]! });
    expect(hasControlCodes(line)).toBe(false);
    expect(line).not.toMatch(/[\u202e\n]/);
    expect(line).toContain("$'/tmp/line\\x0abreak\\x1b[31m\\u202eevil.json'");
  });
});
