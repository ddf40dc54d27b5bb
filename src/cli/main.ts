#!/usr/bin/env node
/** The `mcp-host` command line: argv → command → host. Display only; no host logic lives here. */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { applyCommandConventions } from './command-conventions.js';
import { createAddCommand, createRemoveCommand } from './commands/add-remove.js';
import { createAuditCommand } from './commands/audit.js';
import { createConnectCommand } from './commands/connect.js';
import { createContextCommand } from './commands/context.js';
import { createMemoryCommand } from './commands/memory.js';
import { createMockLlmCommand } from './commands/mock-llm.js';
import { createPromptsCommand } from './commands/prompts.js';
import { createResourcesCommand } from './commands/resources.js';
import { createRunCommand } from './commands/run.js';
import { createServeCommand } from './commands/serve.js';
import { createServersCommand } from './commands/servers.js';
import { createSessionsCommand } from './commands/sessions.js';
import { createSkillsCommand } from './commands/skills.js';
import { createToolsCommand } from './commands/tools.js';
import { createTrustCommand } from './commands/trust.js';
import { loadServersAndTools } from './load-servers-and-tools.js';
import { flushOutput, treatClosedPipesAsEnd } from './output.js';
import { reportError } from './report-error.js';

function packageVersion(): string {
  const url = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

export function createProgram(): Command {
  const program = new Command('mcp-host')
    .description('An MCP host: tools from any number of MCP servers, for any model provider.')
    .version(packageVersion());
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
    createServeCommand(),
    createConnectCommand(),
    createAddCommand(),
    createRemoveCommand(),
    createContextCommand(),
    createMemoryCommand(),
    createSessionsCommand(),
  ]) {
    program.addCommand(command);
  }
  return applyCommandConventions(program);
}

async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
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
