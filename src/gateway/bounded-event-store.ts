/**
 * The event store of one stateful HTTP session: what the gateway sent on its event streams, kept so that a client
 * whose stream dropped can resume it with `Last-Event-ID` and get what it missed. Bounded per session by events and
 * by characters, and all sessions' stores together by a process-wide pool; oldest dropped first. Resuming from an
 * event already dropped is refused (the SDK answers 400), and the client starts a new stream.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** Events kept per session. */
const MAX_STORED_EVENTS = 1_000;
/** Characters of JSON kept per session (about 4 MB): a few large results do not pin unbounded memory. */
const MAX_STORED_CHARACTERS = 4_000_000;
/**
 * Characters of JSON kept by all sessions together (about 64 MB): without it, 200 sessions at their own bound
 * would pin 800 MB. Sixteen sessions can be full at once; most sessions hold far less.
 */
const MAX_POOLED_CHARACTERS = 64_000_000;
/** Events kept by all sessions together: a gateway allowed many sessions still holds a bounded number. */
const MAX_POOLED_EVENTS = 100_000;

interface StoredEvent {
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  size: number;
}

/**
 * What the stores of one process hold together. Over a bound, the store holding the most (characters, or events
 * when the event bound is the one crossed) gives up its oldest event first: a session that pulls large results loses
 * its own history before the small sessions lose theirs.
 */
export class EventStorePool {
  private readonly stores = new Set<BoundedEventStore>();
  private characters = 0;
  private events = 0;

  constructor(
    private readonly maxEvents = MAX_POOLED_EVENTS,
    private readonly maxCharacters = MAX_POOLED_CHARACTERS,
  ) {}

  /** Characters and events held by all stores now. */
  get held(): { characters: number; events: number } {
    return { characters: this.characters, events: this.events };
  }

  /** Called by a store for each event it keeps or drops. */
  counted(store: BoundedEventStore, characters: number, events: number): void {
    this.stores.add(store);
    this.characters += characters;
    this.events += events;
  }

  /** Called by a store that is done (its session closed): its events no longer count. */
  forget(store: BoundedEventStore): void {
    this.stores.delete(store);
  }

  /** Drops events until the pool is within its bounds; `writer`'s newest event stays (its id was just handed out). */
  trim(writer: BoundedEventStore): void {
    while (this.characters > this.maxCharacters || this.events > this.maxEvents) {
      const byCharacters = this.characters > this.maxCharacters;
      let largest: BoundedEventStore | undefined;
      for (const store of this.stores) {
        if (store.droppable(writer) === 0) continue;
        const size = byCharacters ? store.characters : store.eventCount;
        if (largest === undefined || size > (byCharacters ? largest.characters : largest.eventCount)) largest = store;
      }
      if (largest === undefined) return;
      largest.dropOldest();
    }
  }
}

/** The pool every session store of this process shares unless given another. */
const processEventStorePool = new EventStorePool();

export class BoundedEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<EventId, StoredEvent>();
  private held = 0;
  private next = 0;
  private released = false;

  constructor(
    private readonly maxEvents = MAX_STORED_EVENTS,
    private readonly maxCharacters = MAX_STORED_CHARACTERS,
    private readonly pool: EventStorePool = processEventStorePool,
  ) {}

  /** Characters of JSON this store holds. */
  get characters(): number {
    return this.held;
  }

  get eventCount(): number {
    return this.events.length;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.next += 1;
    // A closed session's transport may still store an event on its way out: handed an id, kept nowhere (nor measured).
    if (this.released) return String(this.next);
    const event: StoredEvent = { id: String(this.next), streamId, message, size: JSON.stringify(message).length };
    this.events.push(event);
    this.byId.set(event.id, event);
    this.held += event.size;
    this.pool.counted(this, event.size, 1);
    // The newest event stays even when it alone is over the bound: its id has to resolve for the stream to resume.
    while (this.events.length > 1 && (this.events.length > this.maxEvents || this.held > this.maxCharacters)) {
      this.dropOldest();
    }
    this.pool.trim(this);
    return event.id;
  }

  /** How many events the pool may drop from this store: all but the newest when `writer` is this store. */
  droppable(writer: BoundedEventStore): number {
    return writer === this ? Math.max(0, this.events.length - 1) : this.events.length;
  }

  /** Drops the oldest event; a resume from it is refused from now on. */
  dropOldest(): void {
    const dropped = this.events.shift();
    if (dropped === undefined) return;
    this.byId.delete(dropped.id);
    this.held -= dropped.size;
    this.pool.counted(this, -dropped.size, -1);
  }

  /** The session closed: its events are let go and no longer count against the pool. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.counted(this, -this.held, -this.events.length);
    this.pool.forget(this);
    this.events.length = 0;
    this.byId.clear();
    this.held = 0;
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
    // A copy: events stored (and old ones dropped) while a send waits must not shift this walk.
    for (const event of [...this.events]) {
      // Priming events (`{}`) only mark where a stream began; they carry no message to send again.
      if (Number(event.id) <= after || event.streamId !== last.streamId || !('jsonrpc' in event.message)) continue;
      await send(event.id, event.message);
    }
    return last.streamId;
  }
}
