/**
 * Whether the client of a stateful HTTP session has its standing `GET` stream open now. Streamable HTTP leaves that
 * stream to the client, and what the gateway sends on it while none is open only waits in the session's event store
 * for a client resuming it: profile-sessions.ts then sends what is a client's, while it has calls in flight, on one
 * of its calls' streams instead. A `GET` counts from when it is answered with an event stream until that stream ends;
 * one resuming a call's stream (its `Last-Event-ID` names an event sent on that call's stream) does not.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStore } from '@modelcontextprotocol/server';

/**
 * The stream id the SDK's transport stores the standing stream's events under. Were it to change, a resumed standing
 * stream would not count, and what it would have carried would go on a call's stream: the client still hears it.
 */
const STANDING_STREAM_ID = '_GET_stream';

export class StandingStreams {
  private readonly responses = new Set<ServerResponse>();

  constructor(private readonly events: EventStore) {}

  /** A `GET` of the session, before the transport answers it. */
  async track(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const header = request.headers['last-event-id'];
    const lastEventId = Array.isArray(header) ? header[0] : header;
    if (lastEventId !== undefined && (await this.events.getStreamIdForEventId?.(lastEventId)) !== STANDING_STREAM_ID) {
      return;
    }
    if (response.destroyed) return;
    this.responses.add(response);
    response.once('close', () => this.responses.delete(response));
  }

  /** Whether one of them was answered with an event stream that has not ended. */
  isOpen(): boolean {
    for (const response of this.responses) {
      if (response.headersSent && response.statusCode === 200 && !response.writableEnded && !response.destroyed) {
        return true;
      }
    }
    return false;
  }
}
