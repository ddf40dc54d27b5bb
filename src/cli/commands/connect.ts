/**
 * `mcp-host connect`: a session that keeps the servers up across calls, the way inspectors do, so stateful servers
 * (a browser, a database connection) keep their state between one call and the next. It reads one command per line
 * from standard input (a terminal or a pipe) and answers on stdout; errors go to stderr and never end the session.
 */

import { createInterface } from 'node:readline';
import { Command } from 'commander';
import type { Host } from '../../host/create-host.js';
import { closeNames } from '../../text/close-names.js';
import { showOnOneLine } from '../../text/invisible-characters.js';
import { callOutcomeSentence } from '../call-outcome-sentence.js';
import { addCommonOptions, addServerFilterOption, type CommonOptions } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { withInterruptibleHost } from '../interrupt.js';
import { noneOfferedNote } from '../none-offered-note.js';
import { openHost } from '../open-host.js';
import { writeError, writeJson, writeLine } from '../output.js';
import { parseKeyValues } from '../parse-key-values.js';
import { summaryLine } from '../summary-line.js';
import { stoppedForUnapprovedConfig } from '../unapproved-config-stop.js';
import { unknownToolMessage } from '../unknown-tool-message.js';

const HELP = [
  'tools [TEXT]               list tools (whose name contains TEXT)',
  'call NAME [key=value …]    call a tool; or: call NAME {"key": "value"}',
  'servers                    each server and its state',
  'resources                  the resources servers offer',
  'read SERVER URI            read one resource',
  'prompts                    the prompts servers offer',
  'help                       this list',
  'exit                       end the session (also Ctrl-D)',
].join('\n');

/** `call NAME {json}` or `call NAME k=v …`, typed by the tool's input schema. */
function parseCallArguments(rest: string, inputSchema: unknown): Record<string, unknown> {
  const text = rest.trim();
  if (text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CliError(
        `the arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        EXIT_USAGE,
      );
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new CliError('the arguments must be a JSON object', EXIT_USAGE);
    }
    return value as Record<string, unknown>;
  }
  return parseKeyValues(text === '' ? [] : text.split(/\s+/), inputSchema);
}

/** An empty listing says on stderr which servers were asked, so it does not pass for a command that did nothing. */
function noteNoneOffered(what: 'resources' | 'prompts', host: Host): void {
  const note = noneOfferedNote(what, host.servers());
  if (note !== undefined) writeError(`mcp-host: ${note}`);
}

/** Runs one command line; returns false when the session should end. `failed` counts calls that ended in error. */
async function runLine(host: Host, line: string, signal: AbortSignal, failed: { count: number }): Promise<boolean> {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return true;
  const [word = '', ...restWords] = trimmed.split(/\s+/);
  const rest = trimmed.slice(word.length).trim();
  switch (word) {
    case 'exit':
    case 'quit':
      return false;
    case 'help':
      writeLine(HELP);
      return true;
    case 'tools':
      for (const entry of host.catalog().entries) {
        if (rest !== '' && !entry.name.includes(rest)) continue;
        const description = (entry.tool.description ?? '').split('\n').find((text) => text.trim() !== '') ?? '';
        writeLine(`${entry.name}${description ? `  ${description.trim()}` : ''}`);
      }
      return true;
    case 'servers':
      for (const server of host.servers()) writeLine(`${server.name}: ${server.state} (${server.transport})`);
      return true;
    case 'resources': {
      const listings = await host.resources.list();
      for (const listing of listings) {
        // The server's names on one line: a line break in one would start a line passing for another resource's.
        for (const resource of listing.resources) {
          writeLine(`${listing.server}  ${showOnOneLine(resource.uri)}  ${showOnOneLine(resource.name)}`);
        }
      }
      if (!listings.some((listing) => listing.resources.length + listing.templates.length > 0))
        noteNoneOffered('resources', host);
      return true;
    }
    case 'read': {
      const [server, uri] = restWords;
      if (server === undefined || uri === undefined) throw new CliError('usage: read SERVER URI', EXIT_USAGE);
      writeJson(await host.resources.read(server, uri));
      return true;
    }
    case 'prompts': {
      const listings = await host.prompts.list();
      for (const listing of listings) {
        for (const prompt of listing.prompts)
          writeLine(`${listing.server}:${showOnOneLine(prompt.name)}  ${summaryLine(prompt.description)}`);
      }
      if (!listings.some((listing) => listing.prompts.length > 0)) noteNoneOffered('prompts', host);
      return true;
    }
    case 'call': {
      const [name] = restWords;
      if (name === undefined) throw new CliError('usage: call NAME [key=value …] or call NAME {json}', EXIT_USAGE);
      const entry = host.catalog().resolve(name);
      if (entry === undefined) {
        const close = host.catalog().suggest(name);
        throw new CliError(unknownToolMessage(name, close, '`tools`'), EXIT_USAGE);
      }
      const args = parseCallArguments(rest.slice(name.length), entry.tool.inputSchema);
      const executed = await host.callTool(name, args, { signal });
      // The host's text for a call its server's going away ended says only what stderr was told as it happened.
      const content = executed.serverExit === undefined ? executed.result.content : [];
      for (const part of content) {
        if (part.type === 'text') writeLine(part.text);
        else writeLine(`[image ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`);
      }
      if (executed.result.isError) {
        failed.count += 1;
        writeError(`mcp-host: ${callOutcomeSentence(executed.outcome, entry.server)}`);
      }
      return true;
    }
    default:
      throw new CliError(unknownCommandMessage(word), EXIT_USAGE);
  }
}

/** The words a line may start with, as `runLine` reads them. */
const COMMAND_WORDS = ['tools', 'call', 'servers', 'resources', 'read', 'prompts', 'help', 'exit', 'quit'];

function unknownCommandMessage(word: string): string {
  const [close] = closeNames(word, COMMAND_WORDS, 1);
  const hint = close === undefined ? '' : ` — did you mean ${close}?`;
  return `unknown command "${word}"${hint} (type help for the commands)`;
}

export function createConnectCommand(): Command {
  const command = new Command('connect').description(
    'keep the servers up and take commands line by line (tools, call, servers, resources, read, prompts, exit)',
  );
  addServerFilterOption(addCommonOptions(command));
  return command.action(async (options: CommonOptions) => {
    await withInterruptibleHost(
      () => openHost(options),
      async (host, signal) => {
        if (stoppedForUnapprovedConfig(host)) return;
        const interactive = process.stdin.isTTY === true;
        const lines = createInterface({ input: process.stdin, terminal: false });
        const failed = { count: 0 };
        const prompt = () => {
          if (interactive) process.stderr.write('mcp-host> ');
        };
        if (interactive) writeError(`mcp-host: ${host.catalog().size} tools ready; type help for commands`);
        prompt();
        signal.addEventListener('abort', () => lines.close(), { once: true });
        for await (const line of lines) {
          try {
            if (!(await runLine(host, line, signal, failed))) break;
          } catch (error) {
            if (signal.aborted) break;
            writeError(`mcp-host: ${error instanceof Error ? error.message : String(error)}`);
          }
          prompt();
        }
        lines.close();
        process.exitCode = failed.count > 0 ? EXIT_RUN_FAILED : EXIT_OK;
      },
    );
  });
}
