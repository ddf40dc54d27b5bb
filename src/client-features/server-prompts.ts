/**
 * Prompts of connected servers: listing, getting one with its arguments, and turning its messages into the
 * opening messages of a run. Text and images stay as they are; an embedded resource becomes its text (or an
 * image, or a description of binary data); audio and resource links become one descriptive line, as in tool
 * results; and the whole is cut to the output budget as a tool result is.
 */
import type { Client, GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/client';
import { namedBack } from '../connections/keep-prototype-keys.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { mapContentBlock } from '../content/map-tool-result.js';
import { restoreOwnKeys } from '../json/own-property.js';
import type { Message, TextPart, UserPart } from '../providers/types.js';
import { closeNames } from '../text/close-names.js';
import type { ResultBudget } from './resource-host-tools.js';
import { resourceContentsToParts } from './server-resources.js';

export interface ServerPrompts {
  server: string;
  prompts: Prompt[];
}

/** A prompt named on the command line: `server:NAME`, or `NAME` alone when one server has it. */
export interface PromptReference {
  server?: string;
  name: string;
}

/** The prompt asked for does not exist, is ambiguous, or lacks a required argument: the caller can fix the request. */
export class PromptChoiceError extends Error {
  override readonly name = 'PromptChoiceError';
}

export function offersPrompts(connection: Pick<ServerConnection, 'sdkClient' | 'state'>): boolean {
  return connection.state === 'connected' && connection.sdkClient?.getServerCapabilities()?.prompts !== undefined;
}

function clientOf(connection: ServerConnection): Client {
  const client = connection.sdkClient;
  if (!client || connection.state !== 'connected') {
    throw new Error(`server "${connection.name}" is not connected (${connection.state})`);
  }
  return client;
}

export async function listServerPrompts(connection: ServerConnection): Promise<ServerPrompts> {
  if (!offersPrompts(connection)) return { server: connection.name, prompts: [] };
  const result = await clientOf(connection).listPrompts(undefined, { cacheMode: 'refresh' });
  return { server: connection.name, prompts: restoreOwnKeys(result.prompts) };
}

export async function getServerPrompt(
  connection: ServerConnection,
  name: string,
  args: Record<string, string> = {},
): Promise<GetPromptResult> {
  if (!offersPrompts(connection)) throw new PromptChoiceError(`server "${connection.name}" does not offer prompts`);
  // Checked here so an unknown prompt or a missing argument is named clearly, whatever error the server would give.
  const { prompts } = await listServerPrompts(connection);
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (prompt === undefined) {
    const known = prompts.map((candidate) => candidate.name).join(', ') || 'none';
    throw new PromptChoiceError(`server "${connection.name}" has no prompt "${name}" (its prompts: ${known})`);
  }
  // Before the missing ones: a misspelt argument is named as such, and an optional one would be dropped by the
  // server without a word.
  const declared = (prompt.arguments ?? []).map((argument) => argument.name);
  const unknown = Object.keys(args).find((key) => !declared.includes(key));
  if (unknown !== undefined) {
    const close = closeNames(unknown, declared, 3);
    const takes = declared.length > 0 ? `its arguments: ${declared.join(', ')}` : 'it takes no arguments';
    throw new PromptChoiceError(
      `prompt "${connection.name}:${name}" has no argument "${unknown}" (${close.length > 0 ? `did you mean ${close.join(', ')}? ` : ''}${takes})`,
    );
  }
  const missing = (prompt.arguments ?? []).filter(
    (argument) => argument.required === true && !Object.hasOwn(args, argument.name),
  );
  if (missing.length > 0) {
    const names = missing.map((argument) => argument.name);
    throw new PromptChoiceError(
      `prompt "${connection.name}:${name}" needs the argument${names.length > 1 ? 's' : ''} ${names.join(', ')}: pass ${names.map((argument) => `${argument}=VALUE`).join(' ')}`,
    );
  }
  // Its `__proto__` keys were renamed so that the library's check kept them (see keep-prototype-keys.ts).
  return namedBack(await clientOf(connection).getPrompt({ name, arguments: args }));
}

/** `server:NAME` → both; `NAME` → the name only. A server name itself may not contain `:`. */
export function parsePromptReference(text: string): PromptReference {
  const colon = text.indexOf(':');
  if (colon <= 0) return { name: text };
  return { server: text.slice(0, colon), name: text.slice(colon + 1) };
}

/**
 * Finds the server of a prompt: the one named, or the only server listing a prompt of that name. Throws with
 * the choices when the name is unknown or ambiguous.
 */
export async function findPromptServer(
  reference: PromptReference,
  connections: readonly ServerConnection[],
): Promise<ServerConnection> {
  if (reference.server !== undefined) {
    const connection = connections.find((candidate) => candidate.name === reference.server);
    if (!connection) {
      throw new PromptChoiceError(
        `no connected server is named "${reference.server}" (servers: ${connections.map((c) => c.name).join(', ') || 'none'})`,
      );
    }
    return connection;
  }
  const listings = await Promise.all(connections.filter(offersPrompts).map(listServerPrompts));
  const owners = listings.filter((listing) => listing.prompts.some((prompt) => prompt.name === reference.name));
  const only = owners[0];
  if (owners.length === 1 && only) return connections.find((connection) => connection.name === only.server)!;
  if (owners.length > 1) {
    throw new PromptChoiceError(
      `several servers have a prompt "${reference.name}": write it as ${owners.map((owner) => `${owner.server}:${reference.name}`).join(' or ')}`,
    );
  }
  throw new PromptChoiceError(`no server has a prompt "${reference.name}"; see \`mcp-host prompts list\``);
}

function userParts(content: PromptMessage['content']): UserPart[] {
  if (content.type === 'resource') {
    return resourceContentsToParts({ contents: [content.resource] });
  }
  return [mapContentBlock(content)];
}

/** An assistant message can hold only text: anything else is described. */
function asAssistantPart(part: UserPart): TextPart {
  return part.type === 'text' ? part : { type: 'text', text: `[image: ${part.mimeType} — not shown in this position]` };
}

/**
 * Each piece's parts (a message's), fitted into `budget` all together as one tool result is: a server's prompt opens
 * the run and is sent again on every turn, so it gets no more room than one result. Each piece's parts are found
 * again at the same places.
 */
async function budgetTogether(pieces: UserPart[][], budget: ResultBudget): Promise<UserPart[][]> {
  const whole = pieces.flat();
  const budgeted = await budget(whole, 'this prompt');
  // The budget replaces parts where they are, so each message's parts are found again at the same places.
  if (budgeted.length !== whole.length) throw new Error('the output budget must keep every part in its place');
  let at = 0;
  return pieces.map((parts) => {
    at += parts.length;
    return budgeted.slice(at - parts.length, at);
  });
}

/**
 * A prompt's messages as the opening messages of a run; consecutive messages of one role are joined. The whole
 * prompt, every message together, goes through `budget` as one tool result does.
 */
export async function promptToMessages(result: GetPromptResult, budget: ResultBudget): Promise<Message[]> {
  const roles = result.messages.map((message) => message.role);
  const pieces = result.messages.map((message) => {
    const parts = userParts(message.content);
    return message.role === 'user' ? parts : parts.map(asAssistantPart);
  });
  const messages: Message[] = [];
  for (const [index, parts] of (await budgetTogether(pieces, budget)).entries()) {
    const last = messages.at(-1);
    if (roles[index] === 'user') {
      if (last?.role === 'user') last.content.push(...parts);
      else messages.push({ role: 'user', content: parts });
    } else {
      const assistant = parts.map(asAssistantPart);
      if (last?.role === 'assistant') last.content.push(...assistant);
      else messages.push({ role: 'assistant', content: assistant });
    }
  }
  return messages;
}

/**
 * The parts of each of a prompt's messages, as a model is given them (see `userParts`), cut all together to `budget`
 * as `promptToMessages` cuts them: what a client behind the gateway is given of the prompt.
 */
export function budgetPromptParts(result: GetPromptResult, budget: ResultBudget): Promise<UserPart[][]> {
  return budgetTogether(
    result.messages.map((message) => userParts(message.content)),
    budget,
  );
}
