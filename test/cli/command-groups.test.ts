/**
 * Every command with subcommands behaves alike: given none it runs its listing (the whole program prints its help
 * on stdout), and a word that names none of its commands is a usage error naming the word, a close command and
 * the commands there are.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-list.js';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

function forwardingConfig(): Promise<string> {
  return writeConfig({ mcpServers: { notes: { command: process.execPath, args: [fixtureServer('forwarding.mjs')] } } });
}

describe('a command group given no command', () => {
  it('runs its listing, with the options given to the group', async () => {
    const config = await forwardingConfig();
    const [tools, resources, prompts] = [
      await runCliInProcess(['tools', '--config', config]),
      await runCliInProcess(['resources', '--config', config]),
      await runCliInProcess(['prompts', '--json', '--config', config]),
    ];
    expect(tools.code).toBe(EXIT_OK);
    expect(tools.stdout).toContain('notes__log_level  The level last set.');
    expect(resources.code).toBe(EXIT_OK);
    expect(resources.stdout).toContain('notes://{topic}');
    expect(prompts.code).toBe(EXIT_OK);
    expect(JSON.parse(prompts.stdout)).toEqual([expect.objectContaining({ server: 'notes', name: 'greet' })]);
  });

  it('lists the project memory, the skills and the trust store without starting a server', async () => {
    const project = await temporaryDirectory();
    const remembered = await runCliInProcess(['memory', 'add', 'tests', 'run', 'with', 'vitest'], { cwd: project });
    expect(remembered.code).toBe(EXIT_OK);
    // The one real process here: what a user's shell sees.
    const memory = await runCli(['memory'], { cwd: project });
    expect(memory).toEqual({ code: EXIT_OK, stdout: '1. tests run with vitest\n', stderr: '' });

    const skills = await runCliInProcess(['skills', '--json'], { cwd: project });
    expect(skills.code).toBe(EXIT_OK);
    expect(JSON.parse(skills.stdout)).toEqual({ skills: [], problems: [], warnings: [] });
    const trust = await runCliInProcess(['trust', '--offline'], { cwd: project });
    expect(trust).toMatchObject({ code: EXIT_OK, stdout: 'No servers in the config or the trust store.\n' });
  });

  it('is the whole program, which prints its help on stdout and exits with the usage code', async () => {
    const bare = await runCliInProcess([]);
    expect(bare.code).toBe(EXIT_USAGE);
    expect(bare.stdout).toMatch(/^Usage: mcp-host \[options\] \[command\]\n/);
    expect(bare.stdout).toContain('sessions');
    expect(bare.stderr).toBe('');
  });

  it('says in its help what runs when no command is named', async () => {
    const help = await runCliInProcess(['skills', '--help']);
    expect(help.code).toBe(EXIT_OK);
    expect(help.stdout).toMatch(/\nWith no command: mcp-host skills list\n$/);
  });
});

describe('a word that names no command of a group', () => {
  it('is a usage error naming it, a close command when there is one, and the commands there are', async () => {
    const cases: Array<[string[], string]> = [
      [['memory', 'lsit'], "unknown command 'memory lsit' — did you mean list? (commands: add, list, forget)"],
      [
        ['trust', 'aprove', 'fs'],
        "unknown command 'trust aprove' — did you mean approve? (commands: list, approve, config, revoke)",
      ],
      [['tools', 'cal', 'x'], "unknown command 'tools cal' — did you mean call? (commands: list, call)"],
      [['skills', 'shwo', 'x'], "unknown command 'skills shwo' — did you mean show? (commands: list, show)"],
      [['resources', 'fetch', 'x'], "unknown command 'resources fetch' (commands: list, read)"],
      [['prompts', 'gett', 'x'], "unknown command 'prompts gett' — did you mean get? (commands: list, get)"],
      [
        ['sessions', '--json', 'shwo'],
        "unknown command 'sessions shwo' — did you mean show? (commands: list, show, export, delete)",
      ],
      [['tools', '--json', 'call', 'x'], "put 'tools call' before its options"],
      // One letter is close to no command: not to ui or run, two edits away.
      [['x'], `unknown command 'x' (commands: ${COMMANDS.map((entry) => entry.name).join(', ')})`],
      // Asking for its help is no different: the word is named, not the whole help printed.
      [['help', 'x'], `unknown command 'x' (commands: ${COMMANDS.map((entry) => entry.name).join(', ')})`],
      [['tools', 'help', 'cal'], "unknown command 'tools cal' — did you mean call? (commands: list, call)"],
    ];
    for (const [args, message] of cases) {
      const result = await runCliInProcess(args);
      expect({ args, ...result }).toEqual({ args, code: EXIT_USAGE, stdout: '', stderr: `mcp-host: ${message}\n` });
    }
    // The whole program is a group too: a real process, as a mistyped command name is met in a shell.
    const program = await runCli(['sesions']);
    expect(program.code).toBe(EXIT_USAGE);
    expect(program.stderr).toMatch(
      /^mcp-host: unknown command 'sesions' — did you mean sessions\? \(commands: run, chat, /,
    );
  });

  it('leaves help for a command that is there as it was', async () => {
    const [program, run, call, asked] = [
      await runCliInProcess(['help']),
      await runCliInProcess(['help', 'run']),
      await runCliInProcess(['tools', 'help', 'call']),
      await runCliInProcess(['help', '--help']),
    ];
    expect(program.code).toBe(EXIT_OK);
    expect(program.stdout).toMatch(/^Usage: mcp-host \[options\] \[command\]/);
    // `help` is listed once, last, as commander lists its own.
    expect(program.stdout).toMatch(/\n {2}help \[command\] +display help for command\n$/);
    expect(program.stdout.match(/^ {2}help /gm)).toHaveLength(1);
    expect(asked).toEqual(program);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toMatch(/^Usage: mcp-host run \[options\] \[prompt\]/);
    expect(call.code).toBe(EXIT_OK);
    expect(call.stdout).toMatch(/^Usage: mcp-host tools call \[options\] <name>/);

    // The real process, as a shell meets it: help for a command of a group, then a mistyped word after `help`.
    const [tools, mistyped] = await Promise.all([runCli(['help', 'tools']), runCli(['help', 'tols'])]);
    expect(tools.code).toBe(EXIT_OK);
    expect(tools.stdout).toMatch(/^Usage: mcp-host tools \[options\] \[command\]/);
    expect(tools.stdout).toMatch(/\n {2}call \[options\] <name> \[pairs\.\.\.\] /);
    expect(mistyped).toMatchObject({ code: EXIT_USAGE, stdout: '' });
    expect(mistyped.stderr).toMatch(/^mcp-host: unknown command 'tols' — did you mean tools\? \(commands: run, /);
  });

  it('leaves an explicit listing with words it does not take to say so', async () => {
    const result = await runCliInProcess(['memory', 'list', 'extra']);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toContain("too many arguments for 'list'");
  });
});
