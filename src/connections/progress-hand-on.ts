/**
 * Hands a server's messages to the client library, a call's answer only after the progress notifications read
 * before it, and only the latest of a burst of progress notifications for the same call.
 *
 * The client library handles a notification a tick later but a response at once, dropping the call's progress
 * handler with it: a progress notification read together with its call's result would be lost. An answer that
 * follows a progress notification handed on waits until the client has handled it, and whatever follows the answer
 * waits with it, so the order read is kept.
 *
 * What is held is handed on in one pass, stopping only at such an answer; handing on one message per turn of the
 * event loop and holding the rest again made each notification cost as much as all those still held, so a flood of
 * tens of thousands took minutes. Of the progress notifications held together, only the last of each call goes on:
 * each says where its call stands, so the last one tells all the others would, and the client library checks every
 * message it is given against several schemas at a cost of a few hundred microseconds, which a flood multiplies.
 *
 * A message held is handed on in the asynchronous context it was read in, as one handed on at once is: over
 * Streamable HTTP that context tells which call's stream it came on (see call-streams.ts), and the turn that hands
 * held messages on is another read's. Progress notifications, which need none, are spared the cost.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** Progress notifications passed over before the one diagnostic saying that they are. */
const PASSED_OVER_BEFORE_REPORT = 1_000;

export class ProgressHandOn {
  /** Messages waiting for the client to handle a progress notification, from index `next` on. */
  private held?: JSONRPCMessage[];
  private next = 0;
  private passedOver = 0;
  /** The context each held message other than progress was read in. */
  private readonly readIn = new WeakMap<JSONRPCMessage, ReturnType<typeof AsyncLocalStorage.snapshot>>();

  constructor(
    private readonly deliver: (message: JSONRPCMessage) => void,
    /** Told once, when a server has sent so many progress notifications at once that a good many were passed over. */
    private readonly onFlood?: () => void,
  ) {}

  handOn(message: JSONRPCMessage): void {
    if (this.held) {
      this.held.push(message);
      if (!isProgress(message)) this.readIn.set(message, AsyncLocalStorage.snapshot());
      return;
    }
    this.deliver(message);
    if (isProgress(message)) this.holdUntilHandled([], 0);
  }

  private holdUntilHandled(held: JSONRPCMessage[], next: number): void {
    this.held = held;
    this.next = next;
    setImmediate(() => this.release());
  }

  private release(): void {
    const held = this.held ?? [];
    const end = this.endOfRound(held);
    const lastOfCall = new Map<string | number, number>();
    for (let index = this.next; index < end; index += 1) {
      const token = progressTokenOf(held[index] as JSONRPCMessage);
      if (token !== undefined) lastOfCall.set(token, index);
    }
    let progressed = false;
    for (let index = this.next; index < end; index += 1) {
      const message = held[index] as JSONRPCMessage;
      const token = progressTokenOf(message);
      if (token !== undefined && lastOfCall.get(token) !== index) {
        this.notePassedOver();
        continue;
      }
      const context = this.readIn.get(message);
      if (context === undefined) this.deliver(message);
      else context(() => this.deliver(message));
      if (isProgress(message)) progressed = true;
    }
    // Messages read while the rest waits join the same list, behind it.
    if (end < held.length) this.holdUntilHandled(held, end);
    else if (progressed) this.holdUntilHandled([], 0);
    else this.held = undefined;
  }

  /** Where this round stops: at the first answer after a progress notification, which must wait for the next. */
  private endOfRound(held: JSONRPCMessage[]): number {
    let progressed = false;
    for (let index = this.next; index < held.length; index += 1) {
      const message = held[index] as JSONRPCMessage;
      if (progressed && isAnswer(message)) return index;
      if (isProgress(message)) progressed = true;
    }
    return held.length;
  }

  private notePassedOver(): void {
    this.passedOver += 1;
    if (this.passedOver === PASSED_OVER_BEFORE_REPORT) this.onFlood?.();
  }
}

function isProgress(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'notifications/progress';
}

/** The token of a progress notification that names one, which alone may be passed over for a later one. */
function progressTokenOf(message: JSONRPCMessage): string | number | undefined {
  if (!isProgress(message) || !('params' in message)) return undefined;
  const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

function isAnswer(message: JSONRPCMessage): boolean {
  return !('method' in message) && 'id' in message;
}
