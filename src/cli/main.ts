#!/usr/bin/env node
/** The `mcp-host` command line: argv → command → host. Display only; no host logic lives here. */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { createAuditCommand } from './commands/audit.js';
import { createMockLlmCommand } from './commands/mock-llm.js';
import { createPromptsCommand } from './commands/prompts.js';
import { createResourcesCommand } from './commands/resources.js';
import { createRunCommand } from './commands/run.js';
import { createServersCommand } from './commands/servers.js';
import { createSkillsCommand } from './commands/skills.js';
import { createToolsCommand } from './commands/tools.js';
import { createTrustCommand } from './commands/trust.js';
import { CliError, EXIT_RUN_FAILED, EXIT_USAGE } from './exit-codes.js';
import { loadServersAndTools } from './load-servers-and-tools.js';
import { writeError } from './output.js';

function packageVersion(): string {
  const url = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

export function createProgram(): Command {
  const program = new Command('mcp-host')
    .description('An MCP host: tools from any number of MCP servers, for any model provider.')
    .version(packageVersion())
    .showHelpAfterError()
    .exitOverride();
  for (const command of [
    createRunCommand(),
    createToolsCommand(),
    createServersCommand(),
    createMockLlmCommand(),
    createResourcesCommand(),
    createPromptsCommand(),
    createAuditCommand(),
    createTrustCommand({ loadServersAndTools }),
    createSkillsCommand(),
  ]) {
    program.addCommand(command);
  }
  // Every subcommand reports usage errors the same way: exit code 2.
  for (const command of program.commands) applyExitOverride(command);
  return program;
}

function applyExitOverride(command: Command): void {
  command.exitOverride();
  for (const child of command.commands) applyExitOverride(child);
}

async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0)
        return 0;
      return EXIT_USAGE;
    }
    if (error instanceof CliError) {
      writeError(`mcp-host: ${error.message}`);
      return error.exitCode;
    }
    const name = error instanceof Error ? error.name : '';
    if (name === 'ConfigError' || name === 'ModelChoiceError') {
      writeError(`mcp-host: ${(error as Error).message}`);
      return EXIT_USAGE;
    }
    writeError(`mcp-host: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT_RUN_FAILED;
  }
}

const exitCode = await main(process.argv);
// Let stdout drain before exiting with the code scripts rely on.
process.exitCode = exitCode;
setImmediate(() => process.exit(exitCode));
