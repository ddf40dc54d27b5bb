/**
 * The resource subscriptions of one profile's downstream sessions, shared upstream: one `resources/subscribe` to a
 * server per URI however many sessions want it, undone when the last of them unsubscribes or closes. A server's
 * `notifications/resources/updated` goes to every session subscribed to that URI of that server, and to no other.
 * A restarted server is subscribed again by its connection, which remembers what it was asked; nothing here changes.
 * A `subscriptions/listen` stream of the 2026-07-28 revision holds subscriptions as a session does; its updates go
 * out once on the profile's event bus, whose listen streams each pass on only the URIs they named.
 */
import { ProtocolError, ProtocolErrorCode, type ServerEventBus } from '@modelcontextprotocol/server';
import { KeyedThrottle } from './keyed-throttle.js';
import type { DownstreamSession } from './profile-sessions.js';

/** An open `subscriptions/listen` stream: it has no server of its own to send updates with. */
export interface ListenStream {
  readonly listen: true;
}

type Subscriber = DownstreamSession | ListenStream;

/** Subscriptions one session may hold; one more is refused (a client cannot make the gateway hold unbounded state). */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100;
/** Longer URIs are refused: the host cuts a server's update URIs at this length, so they would never match. */
const MAX_SUBSCRIBED_URI_CHARACTERS = 4_000;

/** The owning server's side: `resources/subscribe` and `resources/unsubscribe` through its connection. */
interface UpstreamSubscriptions {
  subscribe(server: string, uri: string): Promise<void>;
  unsubscribe(server: string, uri: string): Promise<void>;
}

function keyOf(server: string, uri: string): string {
  return JSON.stringify([server, uri]);
}

export class ResourceSubscriptions {
  /** Per server and URI, the sessions subscribed to it. */
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** Per session, its subscribed URIs with the server of each. */
  private readonly bySession = new Map<Subscriber, Map<string, string>>();
  /** Per server and URI, the upstream work in progress: requests for one resource reach the server in order. */
  private readonly queues = new Map<string, Promise<void>>();
  /** A storm of updates of one URI tells a client nothing more than one does: passed on at most once per interval. */
  private readonly updates = new KeyedThrottle((update: { server: string; uri: string }) => this.passOn(update));

  constructor(
    private readonly upstream: UpstreamSubscriptions,
    /** Where listen streams' updates go. */
    private readonly events?: ServerEventBus,
  ) {}

  /** Subscribes `session` to `uri` of `server`, asking the server only when no other session already has. */
  async subscribe(session: Subscriber, server: string, uri: string): Promise<void> {
    if (uri.length > MAX_SUBSCRIBED_URI_CHARACTERS) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `the resource URI is ${uri.length} characters long; at most ${MAX_SUBSCRIBED_URI_CHARACTERS} can be subscribed to`,
      );
    }
    const mine = this.bySession.get(session) ?? new Map<string, string>();
    if (mine.get(uri) === server) return;
    if (mine.has(uri)) await this.unsubscribe(session, uri);
    if (mine.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `this session already holds ${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions, the most the gateway keeps per session; unsubscribe from one first`,
      );
    }
    // Counted at once, so that many subscriptions sent together cannot pass the bound before any is recorded.
    mine.set(uri, server);
    this.bySession.set(session, mine);
    const key = keyOf(server, uri);
    try {
      await this.serially(key, async () => {
        const sessions = this.subscribers.get(key) ?? new Set<Subscriber>();
        if (sessions.size === 0) await this.upstream.subscribe(server, uri);
        sessions.add(session);
        this.subscribers.set(key, sessions);
      });
    } catch (error) {
      if (mine.get(uri) === server) mine.delete(uri);
      if (mine.size === 0 && this.bySession.get(session) === mine) this.bySession.delete(session);
      throw error;
    }
  }

  /** Unsubscribes `session` from `uri`; the server is told when no session is left subscribed to it. */
  async unsubscribe(session: Subscriber, uri: string): Promise<void> {
    const mine = this.bySession.get(session);
    const server = mine?.get(uri);
    if (mine === undefined || server === undefined) return;
    mine.delete(uri);
    if (mine.size === 0) this.bySession.delete(session);
    await this.leave(session, server, uri);
  }

  /** The session ended: each of its subscriptions is left as if it had unsubscribed. */
  async sessionClosed(session: Subscriber): Promise<void> {
    const mine = this.bySession.get(session);
    if (mine === undefined) return;
    this.bySession.delete(session);
    await Promise.all([...mine].map(([uri, server]) => this.leave(session, server, uri)));
  }

  /** How many subscriptions `session` holds. */
  count(session: Subscriber): number {
    return this.bySession.get(session)?.size ?? 0;
  }

  /** A server's `notifications/resources/updated`, to each session subscribed to that URI of that server. */
  updated(update: { server: string; uri: string }): void {
    const key = keyOf(update.server, update.uri);
    // Only subscribed URIs are remembered: a server naming endless others makes no state here.
    if (this.subscribers.has(key)) this.updates.changed(key, update);
  }

  private passOn(update: { server: string; uri: string }): void {
    let toListenStreams = false;
    for (const subscriber of this.subscribers.get(keyOf(update.server, update.uri)) ?? []) {
      if ('listen' in subscriber) toListenStreams = true;
      else void subscriber.server.sendResourceUpdated({ uri: update.uri }).catch(() => undefined);
    }
    // Once however many streams hold it: the bus reaches every stream, each keeping the URIs it named.
    if (toListenStreams) this.events?.publish({ kind: 'resource_updated', uri: update.uri });
  }

  private leave(session: Subscriber, server: string, uri: string): Promise<void> {
    const key = keyOf(server, uri);
    return this.serially(key, async () => {
      const sessions = this.subscribers.get(key);
      if (sessions === undefined || !sessions.delete(session) || sessions.size > 0) return;
      this.subscribers.delete(key);
      // Left whatever the server answers; its connection forgets the URI either way, so a restart does not renew it.
      await this.upstream.unsubscribe(server, uri).catch(() => undefined);
    });
  }

  private serially(key: string, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.queues.set(key, next);
    const forget = () => {
      if (this.queues.get(key) === next) this.queues.delete(key);
    };
    next.then(forget, forget);
    return next;
  }
}
