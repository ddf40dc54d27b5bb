/**
 * Whether the client of a stateful HTTP session has ever had its standing `GET` stream: Streamable HTTP leaves that
 * stream to the client. One that never had it would not see what the gateway sends there, and profile-sessions.ts
 * sends what is that client's, while it has calls in flight, on one of its calls' streams instead. One that had it
 * and dropped it will resume it (`Last-Event-ID`) and get from the session's event store what was sent meanwhile, so
 * it is sent there as ever. A `GET` counts once it is answered with an event stream. One that resumes (`Last-Event-ID`)
 * never counts: it resumes either a call's stream, which is no standing stream, or the standing stream, whose first
 * `GET` counted already; the events it could resume from, the client was sent on a stream this session answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

function answeredWithEventStream(response: ServerResponse): boolean {
  return response.headersSent && response.statusCode === 200;
}

export class StandingStreams {
  private readonly responses = new Set<ServerResponse>();
  private answered = false;

  /** A `GET` of the session, before the transport answers it. */
  track(request: IncomingMessage, response: ServerResponse): void {
    // An empty `Last-Event-ID` resumes nothing: the transport answers it as a new stream.
    const resumes = (request.headers['last-event-id'] ?? '') !== '';
    if (this.answered || resumes || response.destroyed) return;
    this.responses.add(response);
    response.once('close', () => {
      this.responses.delete(response);
      if (answeredWithEventStream(response)) this.answered = true;
    });
  }

  /** Whether one of them was answered with an event stream, open now or not. */
  everAnswered(): boolean {
    if (!this.answered) this.answered = [...this.responses].some(answeredWithEventStream);
    return this.answered;
  }
}
