/**
 * MCP `completion/complete` for a prompt argument: the values a server suggests for what is typed so far, for Tab in
 * the chat. A server without the completions capability, or one that fails, suggests nothing.
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
  const client = connection?.sdkClient;
  if (!client || connection?.state !== 'connected' || client.getServerCapabilities()?.completions === undefined)
    return [];
  try {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: prompt },
      argument,
      ...(Object.keys(given).length > 0 ? { context: { arguments: given } } : {}),
    });
    return result.completion.values.filter((value) => typeof value === 'string').slice(0, MAX_SUGGESTIONS);
  } catch {
    return [];
  }
}
