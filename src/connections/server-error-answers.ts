/**
 * The JSON-RPC errors a server answered the host's `tools/call` requests with, as they came over the transport.
 *
 * The MCP client library raises some errors of its own with the very class a server's error answer becomes
 * (`ProtocolError`): a result whose `structuredContent` is missing or does not match the tool's `outputSchema`, for
 * one. Only the wire tells them apart: a call's `ProtocolError` is the server's when an error answer with its code and
 * message arrived for one of the host's calls. Each answer vouches for one error; calls fail a few microtasks after
 * their answer arrives, so the few answers kept are plenty.
 */
import type { JSONRPCMessage, ProtocolError, Transport } from '@modelcontextprotocol/client';

/** Requests never answered (the server went quiet) must not pile up: the oldest ids are let go past this many. */
const MAX_PENDING_CALLS = 10_000;
/** Answers never taken (their call was given up on) must not pile up: the oldest are let go past this many. */
const MAX_KEPT_ANSWERS = 1_000;

export class ServerErrorAnswers {
  private readonly pendingCalls = new Set<string | number>();
  /** How many error answers of each code and message arrived and were not taken yet, oldest first. */
  private readonly answers = new Map<string, number>();

  /** Watches `transport`'s traffic; put on it after the client has connected to it. */
  watch(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.noteSent(message);
      return send(message, options);
    };
    const receive = transport.onmessage;
    if (receive === undefined) return;
    transport.onmessage = (message, extra) => {
      this.noteReceived(message);
      receive(message, extra);
    };
  }

  /** Whether `error` is what the server answered one of the host's calls with; each answer says so once. */
  take(error: ProtocolError): boolean {
    const key = keyOf(error.code, error.message);
    const count = this.answers.get(key);
    if (count === undefined) return false;
    if (count > 1) this.answers.set(key, count - 1);
    else this.answers.delete(key);
    return true;
  }

  private noteSent(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if (message.method === 'tools/call' && 'id' in message) {
      this.pendingCalls.add(message.id);
      if (this.pendingCalls.size > MAX_PENDING_CALLS)
        this.pendingCalls.delete(this.pendingCalls.values().next().value!);
    } else if (message.method === 'notifications/cancelled') {
      // A late answer to a call given up on fails nothing.
      this.pendingCalls.delete((message.params as { requestId?: string | number } | undefined)?.requestId ?? '');
    }
  }

  private noteReceived(message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    if (!this.pendingCalls.delete(message.id) || !('error' in message)) return;
    const key = keyOf(message.error.code, message.error.message);
    // Re-inserted, so that the order of the map stays the order the answers came in.
    const count = this.answers.get(key) ?? 0;
    this.answers.delete(key);
    this.answers.set(key, count + 1);
    if (this.answers.size > MAX_KEPT_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
  }
}

function keyOf(code: unknown, message: unknown): string {
  // As `new Error(message)` turns it into its message.
  return `${String(code)} ${message === undefined ? '' : String(message)}`;
}
