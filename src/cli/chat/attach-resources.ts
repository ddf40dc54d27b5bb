/**
 * `@server:uri` in a message attaches that resource (Claude Code's convention): the resource is read from the server
 * and its text (and images) go with the message. Only names of connected servers count, so an address like
 * `me@example.com` stays plain text.
 */
import { resourceContentsToParts } from '../../client-features/server-resources.js';
import type { UserPart } from '../../providers/types.js';
import type { ChatContext } from './chat-context.js';
import { ChatCommandError } from './slash-command.js';

const MENTION = /(?<=^|\s)@([\w.-]+):(\S+)/g;

interface Mention {
  server: string;
  uri: string;
}

function findMentions(context: ChatContext, text: string): Mention[] {
  return [...text.matchAll(MENTION)]
    .map((match) => ({ server: match[1]!, uri: match[2]! }))
    .filter((mention) => context.host.connection(mention.server) !== undefined);
}

/** The message with every mentioned resource's content added after it. */
export async function attachResources(
  context: ChatContext,
  text: string,
): Promise<{ text: string; images: UserPart[] }> {
  const mentions = findMentions(context, text);
  const parts: string[] = [text];
  const images: UserPart[] = [];
  for (const { server, uri } of mentions) {
    let result: Awaited<ReturnType<ChatContext['host']['resources']['read']>>;
    try {
      result = await context.host.resources.read(server, uri);
    } catch (error) {
      throw new ChatCommandError(
        `cannot attach @${server}:${uri}: ${error instanceof Error ? error.message : String(error)} (the message was not sent)`,
      );
    }
    let characters = 0;
    for (const part of resourceContentsToParts(result)) {
      if (part.type === 'text') {
        parts.push(part.text);
        characters += part.text.length;
      } else if (part.type === 'image') images.push(part);
    }
    context.output.line(context.output.styles.dim(`(attached @${server}:${uri}, ${characters} characters)`));
  }
  return { text: parts.join('\n\n'), images };
}
