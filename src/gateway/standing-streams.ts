/**
 * Whether the client of a stateful HTTP session has ever had its standing `GET` stream: Streamable HTTP leaves that
 * stream to the client. One that never had it would not see what the gateway sends there, and profile-sessions.ts
 * sends what is that client's, while it has calls in flight, on one of its calls' streams instead. One that had it
 * and dropped it will resume it (`Last-Event-ID`) and get from the session's event store what was sent meanwhile, so
 * it is sent there as ever. A `GET` counts once it is answered with an event stream; one resuming a call's stream (its
 * `Last-Event-ID` names an event sent on that call's stream) does not.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStore } from '@modelcontextprotocol/server';

/**
 * The stream id the SDK's transport stores the standing stream's events under. Were it to change, a resumed standing
 * stream would not count; the one it resumes already did.
 */
const STANDING_STREAM_ID = '_GET_stream';

function answeredWithEventStream(response: ServerResponse): boolean {
  return response.headersSent && response.statusCode === 200;
}

export class StandingStreams {
  private readonly responses = new Set<ServerResponse>();
  private answered = false;

  constructor(private readonly events: EventStore) {}

  /** A `GET` of the session, before the transport answers it. */
  async track(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.answered) return;
    const header = request.headers['last-event-id'];
    const lastEventId = Array.isArray(header) ? header[0] : header;
    if (lastEventId !== undefined && (await this.events.getStreamIdForEventId?.(lastEventId)) !== STANDING_STREAM_ID) {
      return;
    }
    if (response.destroyed) return;
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
