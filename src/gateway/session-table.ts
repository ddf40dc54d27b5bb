/**
 * The open stateful HTTP sessions of a gateway, bounded: at most `gateway.maxSessions` in all and
 * `gateway.maxSessionsPerClient` per client, and each closed after `gateway.sessionIdleTimeoutMs` with no request
 * in progress and no stream open. Each session keeps an event store and upstream subscriptions, so without these
 * bounds a client opening sessions without end (or leaving them without `DELETE`) would grow the gateway's memory
 * without end. The 2026-07-28 revision's listen streams, which hold subscriptions as long as they are open, are
 * counted in a table of their own under the same bounds.
 */
import type { ServerResponse } from 'node:http';
import type { Rejection } from './http-guard.js';

interface SessionLimits {
  maxSessions: number;
  maxSessionsPerClient: number;
  sessionIdleTimeoutMs: number;
}

/** One session's place in the table, from its initialize request until it closes. */
export class SessionSlot {
  private inProgress = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private released = false;

  constructor(
    private readonly table: SessionTable,
    readonly client: string,
    private readonly idleTimeoutMs: number,
    private readonly onIdle: () => void,
  ) {}

  /** A request of this session (a call, or a stream it keeps open) began; it ends when its response closes. */
  track(response: ServerResponse): void {
    if (this.released) return;
    this.inProgress += 1;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    response.once('close', () => {
      this.inProgress -= 1;
      if (this.inProgress === 0 && !this.released) {
        this.idleTimer = setTimeout(() => this.onIdle(), this.idleTimeoutMs);
        // An idle session alone does not keep the process alive.
        this.idleTimer.unref();
      }
    });
  }

  /** The session closed (DELETE, idle, failed initialize or shutdown): its place is free. */
  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.idleTimer);
    this.table.free(this);
  }
}

/** What a table holds, as its refusals name it, and what a client over its share can do. */
interface Held {
  plural: string;
  endOne: string;
}

const SESSIONS: Held = { plural: 'sessions', endOne: 'end one (DELETE) or let it expire' };

export class SessionTable {
  private readonly open = new Set<SessionSlot>();
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly held: Held = SESSIONS,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * Takes a place for a new session of `client`, or answers why not: 429 when that client holds its share (it can
   * close one of its own), 503 when the gateway is full (nothing the client can do but wait).
   */
  reserve(client: string, onIdle: () => void): SessionSlot | Rejection {
    const held = this.perClient.get(client) ?? 0;
    if (held >= this.limits.maxSessionsPerClient) {
      return {
        status: 429,
        message: `this client already has ${held} open ${this.held.plural}, the most allowed (gateway.maxSessionsPerClient): ${this.held.endOne}`,
      };
    }
    if (this.open.size >= this.limits.maxSessions) {
      return {
        status: 503,
        message: `the gateway already has ${this.open.size} open ${this.held.plural}, the most allowed (gateway.maxSessions): try again later`,
        // A place may free at any moment (a DELETE), so the hint is short even when sessions expire slowly.
        headers: { 'retry-after': String(Math.min(60, Math.ceil(this.limits.sessionIdleTimeoutMs / 1000))) },
      };
    }
    const slot = new SessionSlot(this, client, this.limits.sessionIdleTimeoutMs, onIdle);
    this.open.add(slot);
    this.perClient.set(client, held + 1);
    return slot;
  }

  /** Called by `SessionSlot.release`. */
  free(slot: SessionSlot): void {
    if (!this.open.delete(slot)) return;
    const held = (this.perClient.get(slot.client) ?? 1) - 1;
    if (held > 0) this.perClient.set(slot.client, held);
    else this.perClient.delete(slot.client);
  }
}
