/**
 * The error answers the host writes itself in place of a server's answer to one of its requests (an answer nested
 * too deep, an event past the size limit), noted by the transport layer that writes them with what they mean in the
 * host's words. They reach the MCP client as any answer does, and the client fails the request with them as it would
 * with a server's JSON-RPC error: only this note tells them apart (see server-error-answers.ts). An answer is
 * recognised by its id, code and message, so a server's own answer is taken for the host's only if it is word for
 * word the same.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * Notes whose answer never reached the client (the connection closed first) must not pile up: the oldest are let go
 * past this many.
 */
const MAX_NOTED_ANSWERS = 1_000;

export class HostWrittenAnswers {
  /** The host's words for each answer written and not yet taken, by id, code and message, oldest first. */
  private readonly noted = new Map<string, string[]>();

  /** Notes `answer`, an error answer the host writes in place of the server's; `words` say what happened. */
  note(answer: JSONRPCMessage, words: string): void {
    const key = keyOf(answer);
    if (key === undefined) return;
    const earlier = this.noted.get(key);
    if (earlier === undefined) this.noted.set(key, [words]);
    else earlier.push(words);
    if (this.noted.size > MAX_NOTED_ANSWERS) this.noted.delete(this.noted.keys().next().value!);
  }

  /** The host's words for `answer` if the host wrote it, else undefined; each note says so once. */
  take(answer: JSONRPCMessage): string | undefined {
    const key = keyOf(answer);
    if (key === undefined) return undefined;
    const words = this.noted.get(key);
    const first = words?.shift();
    if (words?.length === 0) this.noted.delete(key);
    return first;
  }
}

function keyOf(answer: JSONRPCMessage): string | undefined {
  if (!('error' in answer) || !('id' in answer)) return undefined;
  const { id, error } = answer as { id: unknown; error: { code?: unknown; message?: unknown } };
  return JSON.stringify([id, error.code, error.message]);
}
