/**
 * A command made of subcommands (`mcp-host`, `tools`, `sessions`, `memory` …), alike in one place: a word that
 * names none of its commands is a usage error naming the word, a close command when there is one, and the commands
 * there are; given no command, it runs its default one (`listByDefault`) or prints its help on stdout.
 */
import { Command, type HelpContext } from 'commander';
import { closeNames } from '../text/close-names.js';
import { UsageErrorCommand } from './usage-error-command.js';

export class CommandGroup extends UsageErrorCommand {
  constructor(name?: string) {
    super(name);
    this.hook('preSubcommand', (_group, subcommand) => {
      if (subcommand.name() !== this.defaultName || namesCommand(this.args[0], subcommand)) return;
      // Run because no command was named: whatever words it gets were meant as a command of this group.
      subcommand.allowExcessArguments();
      subcommand.hook('preAction', () => {
        const word = subcommand.args[subcommand.registeredArguments.length];
        if (word !== undefined) this.rejectCommand(word);
      });
    });
    // Commander answers `help WORD` naming no command with the whole help and no word about WORD: `help` is a command
    // of the group instead, which reports such a word as the same word without `help` is. Commander finds a command
    // by name before its own help command, so this one runs; its own stays only as the line the help lists, last.
    this.helpCommand('help [command]', 'display help for command');
    this.helpRunner = new Command('help')
      .argument('[command]')
      .helpOption(false)
      // Options placed after the command named (`help tools --config FILE`) are for that command: ignored here.
      .allowUnknownOption()
      .allowExcessArguments()
      .action((word: string | undefined) => this.showHelpOf(word));
    this.addCommand(this.helpRunner, { hidden: true });
  }

  private defaultName: string | undefined;
  private readonly helpRunner: Command;

  /** `command` runs when no command is named, with the group's options (`mcp-host tools --json`). */
  listByDefault(command: Command): this {
    this.defaultName = command.name();
    // A function: the group's place in the tree is known only once it is added to its parent.
    this.addHelpText('after', () => `\nWith no command: mcp-host ${[...commandPath(this), command.name()].join(' ')}`);
    return this.addCommand(command, { isDefault: true });
  }

  /** Commander's own report of a word that names no command, which lists neither the commands nor a close one. */
  unknownCommand(): never {
    return this.rejectCommand(this.args[0] ?? '');
  }

  /** Options given with no command after them (`mcp-host --config team.json`): the command is what is missing. */
  missingCommand(options: readonly string[]): never {
    const place = [...commandPath(this), ...options].join(' ');
    return this.error(`a command is missing after '${place}' (commands: ${this.commandNames().join(', ')})`, {
      code: 'commander.missingArgument',
    });
  }

  /** An option no command takes, written with no command after it (`mcp-host --versoin`). */
  unknownLeadingOption(option: string, close: readonly string[]): never {
    const hint = close.length > 0 ? ` — did you mean ${close.join(' or ')}?` : '';
    return this.error(`unknown option '${option}'${hint}`, { code: 'commander.unknownOption' });
  }

  /** Help shown because no command was named goes to stdout like asked-for help; the exit code still says so. */
  override outputHelp(context?: HelpContext | ((text: string) => string)): void {
    if (typeof context === 'function') super.outputHelp(context);
    else super.outputHelp({ ...context, error: false });
  }

  /** `help WORD`: the help of the command WORD names, the group's own without one, a usage error for any other. */
  private showHelpOf(word: string | undefined): never {
    // `help --help` asks for help too: an option is no command's name.
    if (word === undefined || word.startsWith('-')) return this.help();
    const command = this.commands.find((candidate) => candidate !== this.helpRunner && namesCommand(word, candidate));
    if (command === undefined) return this.rejectCommand(word);
    return command.help();
  }

  private rejectCommand(word: string): never {
    const known = this.commandNames();
    const place = [...commandPath(this), word].join(' ');
    if (known.includes(word)) {
      // `tools --json call …`: options before the command's name leave the name looking like an argument.
      return this.error(`put '${place}' before its options`, { code: 'commander.unknownCommand' });
    }
    const close = closeNames(word, known, 2);
    const hint = close.length > 0 ? ` — did you mean ${close.join(' or ')}?` : '';
    return this.error(`unknown command '${place}'${hint} (commands: ${known.join(', ')})`, {
      code: 'commander.unknownCommand',
    });
  }

  private commandNames(): string[] {
    return this.commands.filter((command) => command !== this.helpRunner).map((command) => command.name());
  }
}

/** Whether `word` is `command`'s name or one of its aliases. */
export function namesCommand(word: string | undefined, command: Command): boolean {
  return word !== undefined && (word === command.name() || command.aliases().includes(word));
}

/** The names that lead to `command` below `mcp-host`: `['sessions']` for `mcp-host sessions`. */
function commandPath(command: Command): string[] {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names;
}
