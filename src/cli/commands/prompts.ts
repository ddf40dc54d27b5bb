/** `mcp-host prompts list|get`: the prompts servers offer, and one prompt's messages with its arguments filled in. */

import type { GetPromptResult } from '@modelcontextprotocol/client';
import { Command } from 'commander';
import { parsePromptReference } from '../../client-features/server-prompts.js';
import { base64DecodedSize, formatByteSize } from '../../content/describe-content.js';
import { setOwnProperty } from '../../json/own-property.js';
import { showOnOneLine } from '../../text/invisible-characters.js';
import { CommandGroup } from '../command-group.js';
import { addCommonOptions, addServerFilterOption, type CommonOptions } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { listingExitCode } from '../listing-exit-code.js';
import { noneOfferedNote } from '../none-offered-note.js';
import { openHost } from '../open-host.js';
import { writeError, writeJson, writeLine } from '../output.js';
import { summaryLine } from '../summary-line.js';
import { stoppedForUnapprovedConfig } from '../unapproved-config-stop.js';

export interface PromptInvocation {
  server?: string;
  name: string;
  arguments: Record<string, string>;
}

/** `server:NAME` and `key=value` pairs → the prompt to get. Prompt arguments are always strings. */
export function parsePromptArguments(reference: string, pairs: readonly string[]): PromptInvocation {
  const parsed = parsePromptReference(reference);
  if (parsed.name === '') throw new CliError(`"${reference}" names no prompt; write server:NAME`, EXIT_USAGE);
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new CliError(`prompt argument "${pair}" is not key=value`, EXIT_USAGE);
    setOwnProperty(args, pair.slice(0, equals), pair.slice(equals + 1));
  }
  return { ...parsed, arguments: args };
}

function describeMessageContent(content: GetPromptResult['messages'][number]['content']): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'image':
    case 'audio':
      return `[${content.type} ${content.mimeType}, ${formatByteSize(base64DecodedSize(content.data))}]`;
    case 'resource_link':
      return `[resource link ${content.uri}]`;
    case 'resource': {
      const resource = content.resource;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource ${resource.uri}]\n${resource.text}`;
      return `[resource ${resource.uri}, ${resource.mimeType ?? 'binary'}]`;
    }
    default:
      return `[${String((content as { type?: unknown }).type)} content]`;
  }
}

/**
 * A server's text with every line after its first indented, so that no line it writes can pass for the start of
 * another message (`[assistant] …`) or of the description. Only a newline breaks a line once control codes are gone.
 */
function indentFollowingLines(text: string): string {
  return text.replaceAll('\n', '\n  ');
}

export function createPromptsCommand(): Command {
  const prompts = new CommandGroup('prompts').description('list the prompts servers offer, or get one');

  const list = new Command('list')
    .description('list every prompt as server:NAME with its arguments')
    .option('--json', 'print JSON');
  addServerFilterOption(addCommonOptions(list));
  list.action(async (options: CommonOptions & { json?: boolean }) => {
    const host = await openHost(options);
    try {
      const listings = await host.prompts.list();
      if (options.json) {
        writeJson(
          listings.flatMap((listing) => listing.prompts.map((prompt) => ({ server: listing.server, ...prompt }))),
        );
      } else {
        for (const listing of listings) {
          for (const prompt of listing.prompts) {
            const args = (prompt.arguments ?? []).map(
              (argument) => `${showOnOneLine(argument.name)}${argument.required ? '*' : ''}`,
            );
            const description = summaryLine(prompt.description ?? prompt.title);
            writeLine(
              `${listing.server}:${showOnOneLine(prompt.name)}${args.length > 0 ? ` (${args.join(', ')})` : ''}${description ? `  ${description}` : ''}`,
            );
          }
        }
        const offered = listings.some((listing) => listing.prompts.length > 0);
        const note = offered ? undefined : noneOfferedNote('prompts', host.servers());
        if (note !== undefined) writeError(`mcp-host: ${note}`);
      }
      process.exitCode = listingExitCode(host, EXIT_OK);
    } catch (error) {
      throw new CliError(`listing prompts failed: ${messageOf(error)}`, EXIT_RUN_FAILED);
    } finally {
      await host.close();
    }
  });

  const get = new Command('get')
    .description("get one prompt's messages: server:NAME (or NAME when one server has it) key=value …")
    .argument('<name>', 'server:NAME, as `prompts list` shows it')
    .argument('[pairs...]', 'prompt arguments as key=value')
    .option('--json', 'print the result as JSON');
  addCommonOptions(get);
  get.action(async (name: string, pairs: string[], options: CommonOptions & { json?: boolean }) => {
    const invocation = parsePromptArguments(name, pairs);
    const host = await openHost(options);
    try {
      if (stoppedForUnapprovedConfig(host)) return;
      const { server, result } = await host.prompts.get(invocation, invocation.arguments);
      if (options.json) {
        writeJson({ server, name: invocation.name, ...result });
      } else {
        if (result.description) writeLine(`# ${indentFollowingLines(result.description)}`);
        for (const message of result.messages)
          writeLine(`[${message.role}] ${indentFollowingLines(describeMessageContent(message.content))}`);
      }
      process.exitCode = EXIT_OK;
    } catch (error) {
      // An unknown or ambiguous prompt, or a missing argument, is a usage error like an unknown tool.
      const exitCode = error instanceof Error && error.name === 'PromptChoiceError' ? EXIT_USAGE : EXIT_RUN_FAILED;
      throw new CliError(`getting prompt "${name}" failed: ${messageOf(error)}`, exitCode);
    } finally {
      await host.close();
    }
  });

  return prompts.listByDefault(list).addCommand(get);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
