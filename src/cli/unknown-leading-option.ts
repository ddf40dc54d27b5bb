/**
 * Options written with no command after them (`mcp-host --versoin`): one that no command takes is a misspelling to
 * name, not a command gone missing. Every command is loaded to know their options; this runs only on that error.
 */
import type { Command } from 'commander';
import { closeNames } from '../text/close-names.js';
import { COMMANDS } from './command-list.js';

/** The program's own options, which every command line takes wherever they are. */
const PROGRAM_OPTIONS = ['--version', '-V', '--help', '-h'];

function optionNames(command: Command, into: Set<string>): Set<string> {
  for (const option of command.options) {
    if (option.long) into.add(option.long);
    if (option.short) into.add(option.short);
    // `--no-stream` is also known as `--stream`'s negation; both spellings are the option's.
    if (option.negate && option.long) into.add(option.long.replace(/^--no-/, '--'));
  }
  for (const child of command.commands) optionNames(child, into);
  return into;
}

/** The first of `options` that no command takes, with the known ones close to it; undefined when all are known. */
export async function unknownLeadingOption(
  options: readonly string[],
): Promise<{ option: string; close: string[] } | undefined> {
  const known = new Set(PROGRAM_OPTIONS);
  for (const entry of COMMANDS) optionNames(await entry.load(), known);
  for (const word of options) {
    if (!word.startsWith('-') || word === '-') continue;
    const option = word.startsWith('--') ? (word.split('=')[0] as string) : word.slice(0, 2);
    if (known.has(option)) continue;
    const longNames = [...known].filter((name) => name.startsWith('--'));
    return { option, close: option.startsWith('--') ? closeNames(option, longNames, 1) : [] };
  }
  return undefined;
}
