/**
 * The conventions every `mcp-host` command follows, applied in one place to the whole command tree: usage errors
 * are one `mcp-host:` line on stderr (no help dump, no stack trace) and end the process through the error main
 * handles, so the exit code is decided once (2 for usage errors).
 */
import type { Command, CommanderError, Option } from 'commander';
import { cutLine } from '../text/cut-line.js';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { missingArgumentMessage, missingOptionMessage } from './missing-input-message.js';
import { boundErrorLines } from './output.js';

/** Commander's reports of a missing argument or option, which it calls on the command and does not declare. */
interface MissingInputReports {
  missingArgument(name: string): never;
  missingMandatoryOptionValue(option: Option): never;
}

export function applyCommandConventions(command: Command): Command {
  command.exitOverride();
  command.configureOutput({ outputError: (message, write) => write(`${oneErrorLine(message)}\n`) });
  const reports: MissingInputReports = {
    missingArgument: (name) =>
      command.error(missingArgumentMessage(command, name), { code: 'commander.missingArgument' }),
    missingMandatoryOptionValue: (option) =>
      command.error(missingOptionMessage(command, option), { code: 'commander.missingMandatoryOptionValue' }),
  };
  Object.assign(command, reports);
  for (const child of command.commands) applyCommandConventions(child);
  return command;
}

/**
 * Commander writes `error: …`; the CLI's single prefix replaces it. Its suggestion comes on a line of its own,
 * `(Did you mean --server?)`, which joins the error in the words the CLI's own suggestions use, so a usage error stays
 * one line. A command's own error may name what a config or a server said, so it is printed as every other error is:
 * without control codes, bounded.
 */
function oneErrorLine(message: string): string {
  const joined = message
    .trim()
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\(Did you mean (.+)\?\)$/, ' — did you mean $1?')
    .replace(
      INVALID_OPTION_VALUE,
      (_whole, before: string, value: string, after: string) =>
        `${before}${cutLine(value, MAX_SHOWN_OPTION_VALUE)}${after}`,
    );
  return boundErrorLines(`mcp-host: ${joined}`);
}

/**
 * How commander quotes an option's value it was told is invalid: whole. A value on one line and cut short by how long
 * it shows (an invisible character as its escape) still says which it was, and leaves room on the line for what is
 * wrong with it.
 */
const INVALID_OPTION_VALUE = /^(option '[^']*' argument ')([\s\S]*?)(' is invalid\.)/;
const MAX_SHOWN_OPTION_VALUE = 200;

/**
 * The exit code for an error commander raised. Its own parse errors (unknown option, missing argument, invalid
 * value) carry exit code 1; they are usage errors, so 2. A command's own `command.error(…, { exitCode })` keeps
 * the code it chose.
 */
export function exitCodeOfCommanderError(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_OK;
  // Help printed because a command was missing (bare `mcp-host`) is a usage error too.
  if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (error.code === 'commander.error' || !error.code.startsWith('commander.')) return error.exitCode;
  return EXIT_USAGE;
}
