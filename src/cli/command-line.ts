/** The `mcp-host` command line as a function: argv → the command it names, run → the exit code. Display only. */
import { Command, Help } from 'commander';
import { applyCommandConventions } from './command-conventions.js';
import { CommandGroup } from './command-group.js';
import { COMMANDS, type CommandEntry, commandToLoad } from './command-list.js';
import { placeLeadingOptions, splitLeadingOptions } from './leading-options.js';
import { packageVersion } from './package-version.js';
import { reportError } from './report-error.js';
import { unknownLeadingOption } from './unknown-leading-option.js';

/** The program for this command line: the command it runs is loaded in full, the others only for `--help`. */
async function createProgram(argv: readonly string[]): Promise<CommandGroup> {
  const program = new CommandGroup('mcp-host')
    .description('An MCP host: tools from any number of MCP servers, for any model provider.')
    .version(packageVersion());
  const wanted = commandToLoad(argv.slice(2));
  const standIns = new Map<Command, CommandEntry>();
  for (const entry of COMMANDS) {
    if (entry === wanted) {
      program.addCommand(await entry.load());
    } else {
      const standIn = new Command(entry.name).description(entry.summary);
      standIns.set(standIn, entry);
      program.addCommand(standIn);
    }
  }
  const help = new Help();
  program.configureHelp({
    subcommandTerm: (command) => {
      const entry = standIns.get(command);
      return entry === undefined ? help.subcommandTerm(command) : `${entry.name} ${entry.usage}`.trimEnd();
    },
  });
  applyCommandConventions(program);
  return program;
}

/**
 * Runs the command `argv` names (`[node, script, ...args]`, as in `process.argv`) and returns the exit code: the one
 * the command set, or the one its error calls for (the error reported on stderr).
 */
export async function runCommandLine(argv: readonly string[]): Promise<number> {
  try {
    const [node = 'node', script = 'mcp-host', ...args] = argv;
    const split = splitLeadingOptions(
      args,
      COMMANDS.map((entry) => entry.name),
    );
    const program = await createProgram([node, script, ...split.rest]);
    if (split.notACommand === '') {
      const unknown = await unknownLeadingOption(split.options);
      if (unknown !== undefined) program.unknownLeadingOption(unknown.option, unknown.close);
      program.missingCommand(split.options);
    }
    // A word that names no command is reported as the program reports it without options before it.
    const words = split.notACommand === undefined ? placeLeadingOptions(program, split) : split.rest;
    await program.parseAsync([node, script, ...words]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportError(error);
  }
}
