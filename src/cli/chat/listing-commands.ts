/** What is there to use: `/tools [filter]`, `/servers`, `/resources`, `/prompts`, `/skills`. */
import { describeServerResources } from '../../client-features/server-resources.js';
import { showOnOneLine } from '../../text/invisible-characters.js';
import { stripControlCodes } from '../../text/strip-control-codes.js';
import { serverInfoText } from '../server-info-text.js';
import { summaryLine } from '../summary-line.js';
import type { SlashCommand } from './slash-command.js';

export const toolsCommand: SlashCommand = {
  name: 'tools',
  usage: '[filter]',
  summary: 'the tools the model can use (names containing filter)',
  async run({ host, output }, argument) {
    const filter = argument.trim().toLowerCase();
    const entries = host
      .catalog()
      .entries.filter((entry) => filter === '' || entry.name.toLowerCase().includes(filter));
    if (entries.length === 0) output.line(filter === '' ? 'No tools.' : `No tool name contains "${argument.trim()}".`);
    for (const entry of entries) {
      const description = summaryLine(entry.tool.description);
      output.writeStyled(
        `${output.styles.bold(stripControlCodes(entry.name))}${description ? `  ${stripControlCodes(description)}` : ''}\n`,
      );
    }
  },
  async complete({ host }, argument) {
    return host
      .catalog()
      .entries.map((entry) => entry.name)
      .filter((name) => name.startsWith(argument));
  },
};

export const serversCommand: SlashCommand = {
  name: 'servers',
  summary: "each server's state and tool count",
  async run({ host, output }) {
    for (const server of host.servers()) {
      const details = [
        server.transport,
        server.serverInfo ? serverInfoText(server.serverInfo) : undefined,
        server.toolCount !== undefined ? `${server.toolCount} tool(s)` : undefined,
      ].filter(Boolean);
      output.line(`${server.name}: ${server.state} (${details.join(', ')})`);
      if (server.lastError) output.line(`  last error: ${summaryLine(server.lastError)}`);
    }
  },
};

export const resourcesCommand: SlashCommand = {
  name: 'resources',
  summary: 'resources servers offer (attach one with @server:uri in a message)',
  async run({ host, output }) {
    const listings = await host.resources.list();
    const lines = listings.flatMap((listing) =>
      describeServerResources(listing).map((line) => `${listing.server}: ${line}`),
    );
    if (lines.length === 0) output.line('No server offers resources.');
    for (const line of lines) output.line(line);
  },
};

export const promptsCommand: SlashCommand = {
  name: 'prompts',
  summary: "servers' prompts, used as /server:prompt arg=value",
  async run({ host, output }) {
    const listings = await host.prompts.list();
    let count = 0;
    for (const listing of listings) {
      for (const prompt of listing.prompts) {
        count += 1;
        // The server's names on one line: a line break in one would start a line passing for another prompt's.
        const args = (prompt.arguments ?? []).map(
          (argument) => `${showOnOneLine(argument.name)}=…${argument.required ? '' : '?'}`,
        );
        const description = summaryLine(prompt.description);
        output.line(
          `/${listing.server}:${showOnOneLine(prompt.name)}${args.length > 0 ? ` ${args.join(' ')}` : ''}${description ? `  ${description}` : ''}`,
        );
      }
    }
    if (count === 0) output.line('No server offers prompts.');
  },
};

export const skillsCommand: SlashCommand = {
  name: 'skills',
  summary: 'skills offered to the model, and those withheld',
  async run({ host, output }) {
    const { offered, withheld, problems } = host.skills();
    if (offered.length + withheld.length + problems.length === 0) output.line('No skills found.');
    for (const skill of offered) output.line(`${skill.name}  ${summaryLine(skill.description)}`);
    for (const skill of withheld) output.line(`${skill.skill.name}  withheld: ${skill.message}`);
    // The message names the file, on one line; the file as it is could hold a line break.
    for (const problem of problems) output.line(`not used: ${problem.message}`);
  },
};
