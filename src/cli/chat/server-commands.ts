/** What the user can do to a server from the chat: `/restart SERVER`, for one that crashed for good or never started. */
import { summaryLine } from '../summary-line.js';
import { ChatCommandError, type SlashCommand } from './slash-command.js';

export const restartCommand: SlashCommand = {
  name: 'restart',
  usage: 'SERVER',
  summary: 'stop a server and start it afresh (one that failed, or stopped being restarted)',
  async run({ host, output }, argument) {
    const name = argument.trim();
    if (name === '') {
      const names = host.servers().map((server) => server.name);
      throw new ChatCommandError(`say which server: /restart SERVER (servers: ${names.join(', ') || 'none'})`);
    }
    // An unknown or disabled server is refused with the servers' names; the chat says it and goes on.
    const status = await host.restartServer(name);
    const tools = status.toolCount === undefined ? '' : `, ${status.toolCount} tool(s)`;
    output.line(`${status.name}: ${status.state}${tools}`);
    if (status.state !== 'connected' && status.lastError) output.line(`  last error: ${summaryLine(status.lastError)}`);
  },
  async complete({ host }, argument) {
    return host
      .servers()
      .map((server) => server.name)
      .filter((name) => name.startsWith(argument));
  },
};
