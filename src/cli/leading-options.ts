/**
 * Options written before the command name (`mcp-host --config team.json tools list`), as many command lines accept
 * them, are moved to just after the command they belong to, where commander reads them. Without this, commander took
 * `--config` for an unknown option of `mcp-host` itself and its value for the command's name.
 *
 * Only when what follows the options is a command. When a word that names none follows them, or nothing does,
 * the command is what is wrong (`notACommand`): the options wait for a command to judge them. Which leading options
 * take a value is known from the options every host command shares, so `-c FILE` keeps its value while a flag such
 * as `--json` moves alone. The program's own options (`--help`, `--version`) and anything else are left exactly as
 * typed, for commander.
 */
import { Command } from 'commander';
import { namesCommand } from './command-group.js';
import { addCommonOptions, addServerFilterOption } from './common-options.js';

export interface LeadingOptions {
  /** The option words before the command, in their order (values included). */
  options: string[];
  /** The arguments from the command's name on. */
  rest: string[];
  /**
   * Set when options come first and no command follows them: the word in the command's place, or '' when the
   * options are all there is (`mcp-host --config team.json`).
   */
  notACommand?: string;
}

/** Options of `mcp-host` itself: commander takes them wherever they are. */
const PROGRAM_OPTIONS = new Set(['-h', '--help', '-V', '--version']);
/** The help command of every command group (see command-group.ts). */
const HELP_COMMAND = 'help';

/** Splits `args` (without node and the script) into the options before the command and the rest. */
export function splitLeadingOptions(args: readonly string[], commandNames: readonly string[]): LeadingOptions {
  const takesValue = optionsTakingValue();
  let index = 0;
  while (index < args.length) {
    const word = args[index] as string;
    if (word === '--' || !word.startsWith('-') || word === '-') break;
    index += 1;
    if (!word.includes('=') && takesValue.has(word) && index < args.length) index += 1;
  }
  const next = args[index];
  const options = args.slice(0, index);
  if (index === 0 || options.some((word) => PROGRAM_OPTIONS.has(word))) return { options: [], rest: [...args] };
  if (next !== undefined && (commandNames.includes(next) || next === HELP_COMMAND)) {
    return { options, rest: args.slice(index) };
  }
  if (next === undefined || !next.startsWith('-')) {
    return { options, rest: args.slice(index), notACommand: next ?? '' };
  }
  return { options: [], rest: [...args] };
}

/**
 * `rest` with `options` placed after the command path it names in `program` (`tools call`, not just `tools`), so the
 * command that takes them reads them. After `help`, they go last: commander's help ignores options after the
 * command it names (`help tools --config FILE`) but would take one between them for that command's name.
 */
export function placeLeadingOptions(program: Command, { options, rest }: LeadingOptions): string[] {
  if (options.length === 0) return [...rest];
  let command = program;
  let index = 0;
  while (index < rest.length) {
    if (rest[index] === HELP_COMMAND && command.commands.length > 0) return [...rest, ...options];
    const child = command.commands.find((candidate) => namesCommand(rest[index], candidate));
    if (child === undefined) break;
    command = child;
    index += 1;
  }
  return [...rest.slice(0, index), ...options, ...rest.slice(index)];
}

let valueOptions: Set<string> | undefined;

/** The short and long spellings of the shared options that take a value. */
function optionsTakingValue(): Set<string> {
  if (valueOptions === undefined) {
    const shared = addServerFilterOption(addCommonOptions(new Command()));
    valueOptions = new Set();
    for (const option of shared.options) {
      if (!option.required && !option.optional) continue;
      if (option.short) valueOptions.add(option.short);
      if (option.long) valueOptions.add(option.long);
    }
  }
  return valueOptions;
}
