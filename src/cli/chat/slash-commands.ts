/**
 * The chat's commands: `/name argument`, a server's prompt as `/server:prompt arg=value`, `/help`. An unknown command
 * is one line saying so (with close names); the chat goes on.
 */
import { closeNames } from '../../text/close-names.js';
import type { ChatContext } from './chat-context.js';
import {
  clearCommand,
  compactCommand,
  costCommand,
  exitCommand,
  modelCommand,
  saveCommand,
} from './conversation-commands.js';
import { expandCommand } from './expand-command.js';
import { promptsCommand, resourcesCommand, serversCommand, skillsCommand, toolsCommand } from './listing-commands.js';
import { auditCommand, rememberCommand, trustCommand } from './record-commands.js';
import { restartCommand } from './server-commands.js';
import { isServerPromptName, runServerPrompt } from './server-prompt.js';
import type { SlashCommand } from './slash-command.js';

const helpCommand: SlashCommand = {
  name: 'help',
  summary: 'this list',
  async run({ output }) {
    for (const command of SLASH_COMMANDS) {
      const usage = command.usage ? ` ${command.usage}` : '';
      output.line(`/${command.name}${usage}`.padEnd(22) + command.summary);
    }
    output.line(`${'/server:prompt a=b'.padEnd(22)}send a server's prompt (see /prompts)`);
    output.line(`${'@server:uri'.padEnd(22)}in a message: attach that resource (see /resources)`);
    output.line(
      "Keys: Tab completes · Up and Down walk this chat's history · Ctrl-C cancels the turn · Ctrl-C twice or Ctrl-D leaves",
    );
  },
};

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  toolsCommand,
  serversCommand,
  restartCommand,
  resourcesCommand,
  promptsCommand,
  skillsCommand,
  modelCommand,
  trustCommand,
  auditCommand,
  expandCommand,
  clearCommand,
  compactCommand,
  saveCommand,
  costCommand,
  rememberCommand,
  exitCommand,
];

export function findSlashCommand(name: string): SlashCommand | undefined {
  return SLASH_COMMANDS.find((command) => command.name === name);
}

/** `/name rest` → its parts. */
export function splitCommandLine(line: string): { name: string; argument: string } {
  const body = line.trimStart().slice(1);
  const space = body.search(/\s/);
  return space === -1 ? { name: body, argument: '' } : { name: body.slice(0, space), argument: body.slice(space + 1) };
}

export async function runSlashCommand(context: ChatContext, line: string): Promise<void> {
  const { name, argument } = splitCommandLine(line);
  const command = findSlashCommand(name);
  if (command !== undefined) return command.run(context, argument);
  if (isServerPromptName(context, name)) return runServerPrompt(context, name, argument);
  const colon = name.indexOf(':');
  if (colon > 0) {
    // Written as a server's prompt: what is unknown is the server, and the commands are no help.
    const server = name.slice(0, colon);
    const servers = context.host.servers().map((status) => status.name);
    const closeServers = closeNames(server, servers, 2);
    const names = closeServers.length > 0 ? `did you mean ${closeServers.join(' or ')}? ` : '';
    context.output.line(
      `mcp-host: unknown command /${name}: no connected server is named "${server}" (${names}servers: ${servers.join(', ') || 'none'}; /prompts lists their prompts)`,
    );
    return;
  }
  const close = closeNames(
    name,
    SLASH_COMMANDS.map((candidate) => candidate.name),
    2,
  );
  const hint = close.length > 0 ? ` — did you mean ${close.map((candidate) => `/${candidate}`).join(' or ')}?` : '';
  context.output.line(`mcp-host: unknown command /${name}${hint} (/help lists them)`);
}
