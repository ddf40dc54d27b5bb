/**
 * A server's prompt used as a chat command: `/server:prompt arg=value …` gets the prompt's messages and sends them
 * as the next user turn (their text, and their images).
 */
import type { UserPart } from '../../providers/types.js';
import { parsePromptArguments } from '../commands/prompts.js';
import type { ChatContext } from './chat-context.js';
import { ChatCommandError } from './slash-command.js';
import { splitWords } from './split-words.js';

/** `server:prompt` when `name` names a connected server followed by a colon. */
export function isServerPromptName(context: ChatContext, name: string): boolean {
  const colon = name.indexOf(':');
  return colon > 0 && context.host.connection(name.slice(0, colon)) !== undefined;
}

export async function runServerPrompt(context: ChatContext, reference: string, argumentText: string): Promise<void> {
  let invocation: ReturnType<typeof parsePromptArguments>;
  try {
    invocation = parsePromptArguments(reference, splitWords(argumentText));
  } catch (error) {
    throw new ChatCommandError(error instanceof Error ? error.message : String(error));
  }
  const messages = await context.host.prompts.messages(
    { ...(invocation.server === undefined ? {} : { server: invocation.server }), name: invocation.name },
    invocation.arguments,
  );
  const texts: string[] = [];
  const images: UserPart[] = [];
  for (const message of messages) {
    if (message.role === 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'image') images.push(part);
    }
  }
  if (texts.length === 0 && images.length === 0) throw new ChatCommandError(`the prompt ${reference} has no messages`);
  context.output.line(context.output.styles.dim(`(prompt ${reference}: ${messages.length} message(s) sent)`));
  await context.turn(texts.join('\n\n'), images);
}
