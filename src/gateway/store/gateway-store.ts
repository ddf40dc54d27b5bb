/**
 * What the replicas of a stateless gateway share. A session is opened on one replica and used from any; a request
 * the gateway sends to a client (an approval asked through elicitation) waits on one replica while the client's
 * answer may arrive at another; a request for a stateful server is passed to the replica that owns the session;
 * rate limits count a client's requests wherever they land.
 */

import type { LoggingLevel } from '@modelcontextprotocol/server';

/** What any replica needs to answer a session's later requests. */
export interface StoredSession {
  /** `GatewayIdentity.key` of whoever opened it: only they may use it. */
  owner: string;
  principal: string;
  clientId?: string;
  profile?: string;
  clientInfo: { name: string; version?: string };
  /** The client's declared capabilities, from its initialize request (untrusted, bounded by the body limit). */
  capabilities: Record<string, unknown>;
  /** The replica whose connections to stateful servers this session uses (`GatewayReplica.id`). */
  replica?: string;
  /** The level the client last asked for with `logging/setLevel`; every message until then. */
  logLevel?: LoggingLevel;
}

export interface SessionClaim {
  won: boolean;
  session: StoredSession;
}

export interface GatewayStore {
  /** Kept for `ttlMs` after the last `getSession`. */
  putSession(id: string, session: StoredSession, ttlMs: number): Promise<void>;
  getSession(id: string, ttlMs: number): Promise<StoredSession | undefined>;
  deleteSession(id: string): Promise<void>;
  /**
   * Writes `next` if the session's record is still exactly `read` (compare-and-set: of replicas writing one session at
   * once, exactly one wins). Answers whether this write won and the record as it stands afterwards (the winner's when
   * another write came first); undefined when the session is gone.
   */
  replaceSession(
    id: string,
    read: StoredSession,
    next: StoredSession,
    ttlMs: number,
  ): Promise<SessionClaim | undefined>;
  /** A client's answer to a request the gateway sent, under a key only that request knows. */
  postAnswer(key: string, message: string): Promise<void>;
  /** Resolves with the answer posted under `key` (before or after the call); rejects when `signal` aborts. */
  waitForAnswer(key: string, signal: AbortSignal): Promise<string>;
  /** Delivers `message` to whoever listens on `channel` now; answers how many listeners got it (0: nobody). */
  publish(channel: string, message: string): Promise<number>;
  /** Passes every message later published on `channel` to `onMessage`, in order, until the returned stop is called. */
  listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Counts one request of `client` in the current window; answers the count and ms until the window ends. */
  countRequest(client: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  close(): Promise<void>;
}

/** How long an answer waits for its request to pick it up. */
export const ANSWER_TTL_MS = 10 * 60_000;

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/** Makes `replica` the session's replica if its record is still exactly `read` (see `replaceSession`). */
export function claimSession(
  store: GatewayStore,
  id: string,
  read: StoredSession,
  replica: string,
  ttlMs: number,
): Promise<SessionClaim | undefined> {
  return store.replaceSession(id, read, { ...read, replica }, ttlMs);
}
