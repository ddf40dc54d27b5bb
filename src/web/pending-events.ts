/**
 * The events waiting to be written to one page's event stream. A page that stops reading (a frozen tab, a laptop
 * asleep with the page open) must not make the host keep everything published meanwhile: once more than
 * {@link MAX_PENDING_EVENT_BYTES} wait, the page has fallen too far behind and its stream is dropped, to be
 * reconnected by the browser, which loads the state afresh.
 */

/** Counted in characters of the events' JSON, about their size on the wire. */
const MAX_PENDING_EVENT_BYTES = 4 * 1024 * 1024;

export interface PendingEvent {
  event: string;
  data: string;
}

export class PendingEvents {
  private readonly queue: PendingEvent[] = [];
  private size = 0;

  constructor(private readonly limit = MAX_PENDING_EVENT_BYTES) {}

  /** Adds one; false (and nothing kept) once the waiting events pass the limit. */
  push(event: PendingEvent): boolean {
    this.queue.push(event);
    this.size += event.data.length;
    if (this.size <= this.limit) return true;
    this.queue.length = 0;
    this.size = 0;
    return false;
  }

  shift(): PendingEvent | undefined {
    const event = this.queue.shift();
    if (event !== undefined) this.size -= event.data.length;
    return event;
  }
}
