/**
 * The CLI loads only the command it runs; the others appear in `--help` through their lines in the command list.
 * Each line must say what the command itself says, so the help listing is the same as with every command loaded.
 */
import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandToLoad } from '../../src/cli/command-list.js';

describe('the command list', () => {
  it('matches each command: name, description and the usage shown in the help listing', async () => {
    const help = new Help();
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name()).toBe(entry.name);
      expect(command.description(), entry.name).toBe(entry.summary);
      expect(help.subcommandTerm(command), entry.name).toBe(`${entry.name} ${entry.usage}`.trimEnd());
    }
  }, 60_000);

  it('names each command once', () => {
    const names = COMMANDS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('picks the command a command line runs, also after `help`', () => {
    expect(commandToLoad(['tools', 'list'])?.name).toBe('tools');
    expect(commandToLoad(['help', 'trust'])?.name).toBe('trust');
    expect(commandToLoad(['--help'])).toBeUndefined();
    expect(commandToLoad(['no-such-command'])).toBeUndefined();
    expect(commandToLoad([])).toBeUndefined();
  });
});
