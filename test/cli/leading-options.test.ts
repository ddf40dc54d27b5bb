/** Options written before the command name reach the command, as in `mcp-host --config FILE tools list`. */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-list.js';
import { EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/project.js';

const commandList = `(commands: ${COMMANDS.map((entry) => entry.name).join(', ')})`;

describe('options before the command', () => {
  it('--config FILE before `tools list` is the config the command uses', async () => {
    const config = await calculatorConfig();
    // The one real process here, as typed in a shell; the rest run the same command line in the worker.
    const result = await runCli(['--config', config, 'tools', 'list']);
    expect(result.stderr).not.toContain('unknown option');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('calculator__add_numbers');
  }, 60_000);

  it('-c FILE and a flag before `tools call` reach the subcommand, its own arguments untouched', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess([
      '-c',
      config,
      '--json',
      'tools',
      'call',
      'calculator__add_numbers',
      'a=5',
      'b=7',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcome: 'ok', result: { content: [{ text: '12' }] } });
  }, 60_000);

  it('--config=FILE before the command works as after it', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess([`--config=${config}`, 'tools', 'call', 'calculator__multiply', 'a=6', 'b=7']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('42');
  }, 60_000);

  it('an option the command does not take is still refused, by its name, exit 2', async () => {
    const result = await runCliInProcess(['--no-such-flag', 'tools', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe("mcp-host: unknown option '--no-such-flag'");
  }, 60_000);

  it('a word after them that names no command is reported as that unknown command, not as the options', async () => {
    const cases: Array<[string[], string]> = [
      [['--config', 'x', 'nothing'], `unknown command 'nothing' ${commandList}`],
      [['-c', 'x', '--json', 'tool', 'list'], `unknown command 'tool' — did you mean tools? ${commandList}`],
    ];
    for (const [args, message] of cases) {
      const result = await runCliInProcess(args);
      expect({ args, ...result }).toEqual({ args, code: EXIT_USAGE, stdout: '', stderr: `mcp-host: ${message}\n` });
    }
  });

  it('before `help`, at the top or in a command group, help is printed as without them, exit 0', async () => {
    const cases: Array<[string[], string[]]> = [
      [['--config', 'x.json', 'help'], ['help']],
      [
        ['--config', 'x.json', 'help', 'tools'],
        ['help', 'tools'],
      ],
      [
        ['-c', 'x.json', '--json', 'tools', 'help', 'call'],
        ['tools', 'help', 'call'],
      ],
    ];
    for (const [args, plain] of cases) {
      const withOptions = await runCliInProcess(args);
      const without = await runCliInProcess(plain);
      expect(without.stdout).toContain('Usage: mcp-host');
      expect({ args, ...withOptions }).toEqual({ args, ...without, code: 0 });
    }
  });

  it('with nothing after them, the command is said to be missing and the commands are listed, exit 2', async () => {
    for (const args of [
      ['--config', 'x'],
      ['--config=x', '--json'],
    ]) {
      const result = await runCliInProcess(args);
      const message = `a command is missing after '${args.join(' ')}' ${commandList}`;
      expect({ args, ...result }).toEqual({ args, code: EXIT_USAGE, stdout: '', stderr: `mcp-host: ${message}\n` });
    }
    // An option no command takes is named as such, with the one it was probably meant to be.
    for (const [args, message] of [
      [['--versoin'], "unknown option '--versoin' — did you mean --version?"],
      [['--config', 'x', '--bogus'], "unknown option '--bogus'"],
      // Commander's own suggestion joins the line in the CLI's words, where it came on a second line.
      [['tools', 'list', '--servr', 'x'], "unknown option '--servr' — did you mean --server?"],
    ] as const) {
      const result = await runCliInProcess([...args]);
      expect({ args, ...result }).toEqual({ args, code: EXIT_USAGE, stdout: '', stderr: `mcp-host: ${message}\n` });
    }
    // Help asked for before the command is still help.
    const help = await runCliInProcess(['--config', 'x', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: mcp-host');
  });
});
