/**
 * Every `mcp-host` command with what its help line shows, and how to load it. Only the command being run is
 * loaded: the others stay one-line stand-ins for the help listing, so `--help` and each command start without
 * importing what the other commands use (the gateway, the tokenizer, skills, config editing…).
 * test/cli/command-list.test.ts checks that each line here matches the command it stands for.
 */
import type { Command } from 'commander';

export interface CommandEntry {
  name: string;
  /** The command's description, as its help shows it. */
  summary: string;
  /** What follows the name in the help listing: `[options] [prompt]`, or '' for a command with subcommands. */
  usage: string;
  load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'run',
    summary: 'run the agent once on PROMPT and print its answer',
    usage: '[options] [prompt]',
    load: async () => (await import('./commands/run.js')).createRunCommand(),
  },
  {
    name: 'chat',
    summary: "talk with the model in the terminal, many turns, with the servers' tools; saved as it goes",
    usage: '[options]',
    load: async () => (await import('./commands/chat.js')).createChatCommand(),
  },
  {
    name: 'tools',
    summary: 'list the tools of every server, or call one',
    usage: '',
    load: async () => (await import('./commands/tools.js')).createToolsCommand(),
  },
  {
    name: 'servers',
    summary: "connect to every server and show each one's state",
    usage: '[options]',
    load: async () => (await import('./commands/servers.js')).createServersCommand(),
  },
  {
    name: 'mock-llm',
    summary: "serve a scripted model over the providers' wire formats on 127.0.0.1, recording every request",
    usage: '[options]',
    load: async () => (await import('./commands/mock-llm.js')).createMockLlmCommand(),
  },
  {
    name: 'resources',
    summary: 'list the resources servers offer, or read one',
    usage: '',
    load: async () => (await import('./commands/resources.js')).createResourcesCommand(),
  },
  {
    name: 'prompts',
    summary: 'list the prompts servers offer, or get one',
    usage: '',
    load: async () => (await import('./commands/prompts.js')).createPromptsCommand(),
  },
  {
    name: 'audit',
    summary:
      'show the audit log: every tool call with its decision and outcome, server starts and exits, trust changes',
    usage: '[options]',
    load: async () => (await import('./commands/audit.js')).createAuditCommand(),
  },
  {
    name: 'trust',
    summary: 'list servers and tools with their trust state; approve or revoke them',
    usage: '',
    load: async () => {
      const [{ createTrustCommand }, { loadServersAndTools }] = await Promise.all([
        import('./commands/trust.js'),
        import('./load-servers-and-tools.js'),
      ]);
      return createTrustCommand({ loadServersAndTools });
    },
  },
  {
    name: 'skills',
    summary: 'list the Agent Skills this config sees, or show one',
    usage: '',
    load: async () => (await import('./commands/skills.js')).createSkillsCommand(),
  },
  {
    name: 'serve',
    summary: 'serve every configured server as one guarded, audited MCP server (a gateway)',
    usage: '[options]',
    load: async () => (await import('./commands/serve.js')).createServeCommand(),
  },
  {
    name: 'connect',
    summary:
      'keep the servers up and take commands line by line (tools, call, servers, resources, read, prompts, exit)',
    usage: '[options]',
    load: async () => (await import('./commands/connect.js')).createConnectCommand(),
  },
  {
    name: 'add',
    summary: 'add a server to the config file: NAME -- COMMAND [ARGS…], or --transport http NAME URL',
    usage: '[options] <name> [commandOrUrl] [args...]',
    load: async () => (await import('./commands/add-remove.js')).createAddCommand(),
  },
  {
    name: 'remove',
    summary: 'remove a server from the config file',
    usage: '[options] <name>',
    load: async () => (await import('./commands/add-remove.js')).createRemoveCommand(),
  },
  {
    name: 'context',
    summary: 'show what goes to the model on every request (instructions, memory, skills, tools) and its tokens',
    usage: '[options]',
    load: async () => (await import('./commands/context.js')).createContextCommand(),
  },
  {
    name: 'memory',
    summary: 'the project memory (.mcp-host/memory.md beside the config): facts every run is told',
    usage: '',
    load: async () => (await import('./commands/memory.js')).createMemoryCommand(),
  },
  {
    name: 'sessions',
    summary: 'the conversations saved in the state folder: list, show, export or delete them',
    usage: '',
    load: async () => (await import('./commands/sessions.js')).createSessionsCommand(),
  },
  {
    name: 'ui',
    summary: 'open the web UI: servers, tools, approvals, trust, audit and chat in a browser, on this machine only',
    usage: '[options]',
    load: async () => (await import('./commands/ui.js')).createUiCommand(),
  },
];

/** The command a command line runs (`mcp-host NAME …` or `mcp-host help NAME`), if it names one. */
export function commandToLoad(args: readonly string[]): CommandEntry | undefined {
  const name = args[0] === 'help' ? args[1] : args[0];
  return COMMANDS.find((entry) => entry.name === name);
}
