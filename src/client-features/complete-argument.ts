/**
 * MCP `completion/complete` for a prompt argument or a resource template's variable: the values a server suggests for
 * what is typed so far (Tab in the chat, suggestions in the web UI). A server without the completions capability, or one that fails, suggests nothing.
 */
import type { ServerConnection } from '../connections/server-connection.js';

/** At most this many suggestions are kept, whatever the server sends. */
const MAX_SUGGESTIONS = 100;

export async function completePromptArgument(
  connection: ServerConnection | undefined,
  prompt: string,
  argument: { name: string; value: string },
  given: Record<string, string> = {},
): Promise<string[]> {
  return completeArgument(connection, { type: 'ref/prompt', name: prompt }, argument, given);
}

/** The same for a variable of a resource template (`ref/resource` with the template's URI). */
export async function completeTemplateArgument(
  connection: ServerConnection | undefined,
  uriTemplate: string,
  argument: { name: string; value: string },
  given: Record<string, string> = {},
): Promise<string[]> {
  return completeArgument(connection, { type: 'ref/resource', uri: uriTemplate }, argument, given);
}

async function completeArgument(
  connection: ServerConnection | undefined,
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  argument: { name: string; value: string },
  given: Record<string, string>,
): Promise<string[]> {
  const client = connection?.sdkClient;
  if (!client || connection?.state !== 'connected' || client.getServerCapabilities()?.completions === undefined)
    return [];
  try {
    const result = await client.complete({
      ref,
      argument,
      ...(Object.keys(given).length > 0 ? { context: { arguments: given } } : {}),
    });
    return result.completion.values.filter((value) => typeof value === 'string').slice(0, MAX_SUGGESTIONS);
  } catch {
    return [];
  }
}
