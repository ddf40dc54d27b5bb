#!/usr/bin/env node
/** The `mcp-host` command line: argv → command → host. Display only; no host logic lives here. */
import { readFileSync } from 'node:fs';
import { Command, Help } from 'commander';
import { applyCommandConventions } from './command-conventions.js';
import { COMMANDS, type CommandEntry, commandToLoad } from './command-list.js';
import { flushOutput, treatClosedPipesAsEnd } from './output.js';
import { reportError } from './report-error.js';

function packageVersion(): string {
  const url = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/** The program for this command line: the command it runs is loaded in full, the others only for `--help`. */
export async function createProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('mcp-host')
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
  return applyCommandConventions(program);
}

async function main(argv: string[]): Promise<number> {
  try {
    const program = await createProgram(argv);
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportError(error);
  }
}

treatClosedPipesAsEnd();
process.exitCode = await main(process.argv);
// No process.exit: output still queued for a slow pipe would be lost. Node exits once it is written and every
// server is closed.
await flushOutput();
