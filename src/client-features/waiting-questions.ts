/**
 * A server's questions to the client (sampling and elicitation requests) that wait for an answer, bounded: past
 * {@link MAX_WAITING_QUESTIONS} of one server's, the next is refused at once, without being put to anyone. A hostile
 * server could otherwise send thousands at once and bury the questions that matter under its own: the terminal asks
 * them one after another, and the gateway passes every one to its client.
 */

import { type ClientContext, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ClientRequestRecorder } from './client-request-audit.js';

/**
 * One server's questions waiting at once, as the web UI holds them; a form or two is what servers really ask. A server
 * with more calls in flight may have one waiting for each (a client of the gateway can make many calls at once).
 */
export const MAX_WAITING_QUESTIONS = 8;

/** How many of a server's questions may wait at once, with `callsInFlight` of its calls made and not yet ended. */
export function waitingQuestionsBound(callsInFlight: number): number {
  return Math.max(MAX_WAITING_QUESTIONS, callsInFlight);
}

type QuestionMethod = 'sampling/createMessage' | 'elicitation/create';

/** What the server is answered with, past the bound: a declined form, a refused sampling request. */
type Refusal<T> = (reason: string) => T;

/** The number waiting, by server. */
class WaitingCounts {
  private readonly counts = new Map<string, number>();

  /** Counts one more for `server`, and returns how to count it out; undefined at `limit` already. */
  enter(server: string, limit: number): (() => void) | undefined {
    const waiting = this.counts.get(server) ?? 0;
    if (waiting >= limit) return undefined;
    this.counts.set(server, waiting + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(server) ?? 1) - 1;
      if (left === 0) this.counts.delete(server);
      else this.counts.set(server, left);
    };
  }
}

/** The answers past the bound: a form declined, as a person may; a sampling request refused, saying why. */
export const declined = (): { action: 'decline' } => ({ action: 'decline' });
export function refusedSampling(reason: string): never {
  throw new ProtocolError(ProtocolErrorCode.InvalidRequest, reason);
}

/** A server's question handler, bounded: see {@link createWaitingQuestions}. */
export type BoundQuestions = <R, T>(
  serverName: string,
  method: QuestionMethod,
  handler: (request: R, context: ClientContext) => Promise<T>,
  refusal: Refusal<T>,
) => (request: R, context: ClientContext) => Promise<T>;

/**
 * One count for every server of a host, shared by the handlers installed on each server's client: each handler given
 * is refused with `refusal` (and audited) past the bound.
 */
export function createWaitingQuestions(
  record: ClientRequestRecorder | undefined,
  callsInFlight: (server: string) => number = () => 0,
): BoundQuestions {
  const counts = new WaitingCounts();
  return (serverName, method, handler, refusal) => async (request, context) => {
    const limit = waitingQuestionsBound(callsInFlight(serverName));
    const release = counts.enter(serverName, limit);
    if (release === undefined) {
      const reason = `server "${serverName}" already has ${limit} questions waiting for an answer; this one was refused without being asked`;
      await record?.({
        server: serverName,
        method,
        request: {},
        answer: method === 'elicitation/create' ? 'decline' : 'deny',
        approver: 'host',
        reason: `${reason}.`,
        outcome: 'denied',
        startedAt: new Date(),
        durationMs: 0,
      });
      return refusal(reason);
    }
    try {
      return await handler(request, context);
    } finally {
      release();
    }
  };
}
