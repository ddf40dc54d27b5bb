/**
 * The event store of one stateful HTTP session: what the gateway sent on its event streams, kept so that a client
 * whose stream dropped can resume it with `Last-Event-ID` and get what it missed. Bounded per session by events and
 * by characters, oldest dropped first; resuming from an event already dropped is refused (the SDK answers 400), and
 * the client starts a new stream.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Events kept per session. */
export const MAX_STORED_EVENTS = 1_000;
/** Characters of JSON kept per session (about 4 MB): a few large results do not pin unbounded memory. */
export const MAX_STORED_CHARACTERS = 4_000_000;

interface StoredEvent {
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  size: number;
}

export class BoundedEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<EventId, StoredEvent>();
  private characters = 0;
  private next = 0;

  constructor(
    private readonly maxEvents = MAX_STORED_EVENTS,
    private readonly maxCharacters = MAX_STORED_CHARACTERS,
  ) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.next += 1;
    const event: StoredEvent = { id: String(this.next), streamId, message, size: JSON.stringify(message).length };
    this.events.push(event);
    this.byId.set(event.id, event);
    this.characters += event.size;
    // The newest event stays even when it alone is over the bound: its id has to resolve for the stream to resume.
    while (this.events.length > 1 && (this.events.length > this.maxEvents || this.characters > this.maxCharacters)) {
      const dropped = this.events.shift()!;
      this.byId.delete(dropped.id);
      this.characters -= dropped.size;
    }
    return event.id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.byId.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.byId.get(lastEventId);
    if (last === undefined) return '';
    const after = Number(last.id);
    for (const event of this.events) {
      // Priming events (`{}`) only mark where a stream began; they carry no message to send again.
      if (Number(event.id) <= after || event.streamId !== last.streamId || !('jsonrpc' in event.message)) continue;
      await send(event.id, event.message);
    }
    return last.streamId;
  }
}
