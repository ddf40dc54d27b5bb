/**
 * The JSON-RPC errors a server answered the host's `tools/call` requests with, as they came over the transport, and
 * those the host wrote itself in place of the server's answer.
 *
 * The MCP client library raises some errors of its own with the very class a server's error answer becomes
 * (`ProtocolError`): a result whose `structuredContent` is missing or does not match the tool's `outputSchema`, for
 * one. Only the wire tells them apart: a call's `ProtocolError` is the server's when an error answer with its code and
 * message arrived for one of the host's calls. The host's transport layer writes error answers too (an answer nested
 * too deep, an event past the size limit), which arrive the same way: those it noted (see host-written-answers.ts)
 * are the host's, with the host's words. Each answer vouches for one error; calls fail a few microtasks after their
 * answer arrives, so the few answers kept are plenty.
 */
import type { JSONRPCMessage, ProtocolError } from '@modelcontextprotocol/client';
import type { HostWrittenAnswers } from './host-written-answers.js';

/** Answers never taken (their call was given up on) must not pile up: the oldest are let go past this many. */
const MAX_KEPT_ANSWERS = 1_000;

/** Who answered a call with an error: the server, or the host in its place (`words`: what happened). */
export type ErrorAnswerOrigin = { by: 'server' } | { by: 'host'; words: string };

export class ServerErrorAnswers {
  /** The origin of each error answer of each code and message that arrived and was not taken yet, oldest first. */
  private readonly answers = new Map<string, ErrorAnswerOrigin[]>();

  /**
   * `hostWritten`: where the transport layer notes the answers it writes itself. The answers are handed in by the
   * wrapper already on the transport (see keep-prototype-keys.ts), which follows the calls in flight until answered,
   * given up on (a late answer to one fails nothing) or not sent: a message passes one wrapper, and a call is
   * followed once.
   */
  constructor(private readonly hostWritten: HostWrittenAnswers) {}

  /** Who answered one of the host's calls with `error`, if anyone did; each answer says so once. */
  take(error: ProtocolError): ErrorAnswerOrigin | undefined {
    const key = keyOf(error.code, error.message);
    const origins = this.answers.get(key);
    const first = origins?.shift();
    if (origins?.length === 0) this.answers.delete(key);
    return first;
  }

  /** `answersCall`: whether `message` answers one of the host's calls in flight. */
  noteReceived(message: JSONRPCMessage, answersCall: boolean): void {
    if ('method' in message || !('id' in message) || message.id === undefined || !('error' in message)) return;
    // Taken whatever request it answers, so that the notes of answers to other requests do not linger.
    const hostWords = this.hostWritten.take(message);
    if (!answersCall) return;
    const key = keyOf(message.error.code, message.error.message);
    // Re-inserted, so that the order of the map stays the order the answers came in.
    const origins = this.answers.get(key) ?? [];
    this.answers.delete(key);
    this.answers.set(key, [...origins, hostWords === undefined ? { by: 'server' } : { by: 'host', words: hostWords }]);
    if (this.answers.size > MAX_KEPT_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
  }
}

function keyOf(code: unknown, message: unknown): string {
  // As `new Error(message)` turns it into its message.
  return `${String(code)} ${message === undefined ? '' : String(message)}`;
}
