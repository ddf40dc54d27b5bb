/**
 * Tab in the chat: command names and servers' prompts after `/`, a command's own argument (tool names for `/tools`,
 * providers for `/model`), a prompt's argument names and the values its server suggests (MCP completion/complete),
 * and resource URIs after `@`. Listings of prompts and resources are fetched once and kept for the chat.
 */
import type { Prompt } from '@modelcontextprotocol/client';
import { completePromptArgument } from '../../client-features/complete-argument.js';
import { hasControlCodes } from '../../text/strip-control-codes.js';
import type { ChatContext } from './chat-context.js';
import { findSlashCommand, SLASH_COMMANDS, splitCommandLine } from './slash-commands.js';
import { splitWords } from './split-words.js';

/**
 * The line editor writes completions to the terminal as they are (the list of candidates, and the one put into the
 * line), past the chat's output and its cleaning. Prompt names, resource URIs and suggested values come from
 * servers: one carrying control codes or direction overrides, or a line break or tab, is left out rather than printed
 * or typed for the user.
 */
export function createCompleter(context: () => ChatContext | undefined): (line: string) => Promise<[string[], string]> {
  const complete = createUncheckedCompleter(context);
  return async (line) => {
    const [candidates, word] = await complete(line);
    return [candidates.filter((candidate) => !hasControlCodes(candidate) && !/[\n\t]/.test(candidate)), word];
  };
}

function createUncheckedCompleter(
  context: () => ChatContext | undefined,
): (line: string) => Promise<[string[], string]> {
  let prompts: Promise<Array<{ server: string; prompt: Prompt }>> | undefined;
  let resources: Promise<string[]> | undefined;
  const listPrompts = (chat: ChatContext) => {
    prompts ??= chat.host.prompts
      .list()
      .then((listings) =>
        listings.flatMap((listing) => listing.prompts.map((prompt) => ({ server: listing.server, prompt }))),
      )
      .catch(() => []);
    return prompts;
  };
  const listResources = (chat: ChatContext) => {
    resources ??= chat.host.resources
      .list()
      .then((listings) =>
        listings.flatMap((listing) => listing.resources.map((resource) => `@${listing.server}:${resource.uri}`)),
      )
      .catch(() => []);
    return resources;
  };

  return async (line) => {
    const chat = context();
    if (chat === undefined) return [[], line];
    const word = line.slice(line.search(/\S*$/));
    if (word.startsWith('@')) {
      return [(await listResources(chat)).filter((uri) => uri.startsWith(word)), word];
    }
    if (!line.startsWith('/')) return [[], line];
    const { name, argument } = splitCommandLine(line);
    if (!/\s/.test(line)) {
      const names = [
        ...SLASH_COMMANDS.map((command) => `/${command.name}`),
        ...(await listPrompts(chat)).map(({ server, prompt }) => `/${server}:${prompt.name}`),
      ];
      return [names.filter((candidate) => candidate.startsWith(line)), line];
    }
    const command = findSlashCommand(name);
    if (command?.complete) return [await command.complete(chat, argument), argument];
    const found = (await listPrompts(chat)).find(({ server, prompt }) => `${server}:${prompt.name}` === name);
    if (found === undefined) return [[], word];
    const equals = word.indexOf('=');
    if (equals === -1) {
      const given = new Set(splitWords(argument).map((pair) => pair.split('=')[0]));
      const names = (found.prompt.arguments ?? [])
        .map((entry) => `${entry.name}=`)
        .filter((candidate) => candidate.startsWith(word) && !given.has(candidate.slice(0, -1)));
      return [names, word];
    }
    const argumentName = word.slice(0, equals);
    const others = Object.fromEntries(
      splitWords(argument.slice(0, argument.length - word.length))
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const)
        .filter(([key]) => key !== ''),
    );
    const values = await completePromptArgument(
      chat.host.connection(found.server),
      found.prompt.name,
      { name: argumentName, value: word.slice(equals + 1) },
      others,
    );
    return [values.map((value) => `${argumentName}=${value}`), word];
  };
}
