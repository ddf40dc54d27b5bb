/**
 * `mcp-host memory add TEXT | list | forget N`: the project memory, `.mcp-host/memory.md` beside the config — short
 * facts the user wants every run to know, loaded into the system prompt with the project instructions. The file is
 * plain Markdown the user may also edit by hand; there is no other memory.
 */
import path from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { addMemory, forgetMemory, memoryFile, readMemory } from '../../skills/project-memory.js';
import { CommandGroup } from '../command-group.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';
import { writeError, writeJson, writeLine } from '../output.js';
import { unapprovedConfigNote } from '../unapproved-config-note.js';

interface MemoryOptions {
  config?: string;
  json?: boolean;
}

async function projectFolder(options: MemoryOptions): Promise<string> {
  const config = await loadConfig({ configPath: options.config });
  return config.file === undefined ? process.cwd() : path.dirname(config.file);
}

export function createMemoryCommand(): Command {
  const memory = new CommandGroup('memory').description(
    'the project memory (.mcp-host/memory.md beside the config): facts every run is told',
  );
  const withConfig = (command: Command): Command =>
    command.option('-c, --config <file>', 'config file (default: mcp-host.json, then .mcp.json in the current folder)');

  const add = withConfig(new Command('add'))
    .description('remember a fact in this project')
    .argument('<text...>', 'the fact, in words');
  add.action(async (words: string[], options: MemoryOptions) => {
    const config = await loadConfig({ configPath: options.config });
    const folder = config.file === undefined ? process.cwd() : path.dirname(config.file);
    const entry = usage(() => addMemory(folder, words.join(' ')));
    writeLine(`Remembered in ${memoryFile(folder)}: ${entry}`);
    // Kept all the same: it is the user's own fact, and it is given to the model once the config is approved.
    const note = unapprovedConfigNote(config, {}, 'the project memory is not given to the model');
    if (note !== undefined) writeError(`mcp-host: ${note}`);
  });

  const list = withConfig(new Command('list'))
    .description('the remembered facts, numbered')
    .option('--json', 'print JSON');
  list.action(async (options: MemoryOptions) => {
    const folder = await projectFolder(options);
    const entries = readMemory(folder);
    if (options.json) {
      writeJson({ file: memoryFile(folder), entries });
      return;
    }
    if (entries.length === 0) writeLine(`Nothing remembered yet (${memoryFile(folder)}).`);
    for (const [index, entry] of entries.entries()) writeLine(`${index + 1}. ${entry}`);
  });

  const forget = withConfig(new Command('forget'))
    .description('forget fact N (as `memory list` numbers them)')
    .argument('<n>', 'the number of the fact');
  forget.action(async (number: string, options: MemoryOptions) => {
    if (!/^[1-9]\d*$/.test(number)) {
      throw new CliError(
        `memory forget takes the number of a fact, as \`mcp-host memory list\` shows it, not ${JSON.stringify(number)}`,
        EXIT_USAGE,
      );
    }
    const folder = await projectFolder(options);
    const removed = usage(() => forgetMemory(folder, Number(number)));
    writeLine(`Forgot: ${removed}`);
  });

  memory.addCommand(add);
  memory.listByDefault(list);
  memory.addCommand(forget);
  return memory;
}

/** Bad input (empty text, no such entry, too long) is a usage error naming what was wrong. */
function usage<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT_USAGE);
  }
}
