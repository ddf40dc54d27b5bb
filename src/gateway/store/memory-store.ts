/** The store of one process: sessions, answers and counts in maps, expired lazily. */

import {
  ANSWER_TTL_MS,
  abortError,
  type GatewayStore,
  type SessionClaim,
  type StoredSession,
} from './gateway-store.js';

export class MemoryGatewayStore implements GatewayStore {
  private readonly sessions = new Map<string, { session: StoredSession; expires: number }>();
  private readonly answers = new Map<string, { message: string; expires: number }>();
  private readonly waiters = new Map<string, (message: string) => void>();
  private readonly counts = new Map<string, { window: number; count: number }>();
  private readonly listeners = new Map<string, Set<(message: string) => void>>();

  async putSession(id: string, session: StoredSession, ttlMs: number): Promise<void> {
    this.sweep();
    this.sessions.set(id, { session, expires: Date.now() + ttlMs });
  }

  async getSession(id: string, ttlMs: number): Promise<StoredSession | undefined> {
    const entry = this.sessions.get(id);
    if (entry === undefined || entry.expires < Date.now()) return undefined;
    entry.expires = Date.now() + ttlMs;
    return entry.session;
  }

  async deleteSession(id: string): Promise<void> {
    this.sessions.delete(id);
  }

  async replaceSession(
    id: string,
    read: StoredSession,
    next: StoredSession,
    ttlMs: number,
  ): Promise<SessionClaim | undefined> {
    const entry = this.sessions.get(id);
    if (entry === undefined || entry.expires < Date.now()) return undefined;
    entry.expires = Date.now() + ttlMs;
    if (JSON.stringify(entry.session) !== JSON.stringify(read)) return { won: false, session: entry.session };
    // A new record, not a change to the stored one: whoever read the old record keeps what it read.
    entry.session = { ...next };
    return { won: true, session: entry.session };
  }

  async postAnswer(key: string, message: string): Promise<void> {
    const waiter = this.waiters.get(key);
    if (waiter !== undefined) waiter(message);
    else this.answers.set(key, { message, expires: Date.now() + ANSWER_TTL_MS });
  }

  waitForAnswer(key: string, signal: AbortSignal): Promise<string> {
    const posted = this.answers.get(key);
    if (posted !== undefined) {
      this.answers.delete(key);
      return Promise.resolve(posted.message);
    }
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(abortError(signal));
      const onAbort = (): void => {
        this.waiters.delete(key);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(key, (message) => {
        this.waiters.delete(key);
        signal.removeEventListener('abort', onAbort);
        resolve(message);
      });
    });
  }

  async publish(channel: string, message: string): Promise<number> {
    const listening = [...(this.listeners.get(channel) ?? [])];
    for (const listener of listening) listener(message);
    return listening.length;
  }

  async listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    // Each listen is its own entry, even for the same function, so one stop never ends another's.
    const listener = (message: string): void => onMessage(message);
    const listening = this.listeners.get(channel) ?? new Set();
    listening.add(listener);
    this.listeners.set(channel, listening);
    return async () => {
      listening.delete(listener);
      if (listening.size === 0 && this.listeners.get(channel) === listening) this.listeners.delete(channel);
    };
  }

  async countRequest(client: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const entry = this.counts.get(client);
    const count = entry?.window === window ? entry.count + 1 : 1;
    this.counts.set(client, { window, count });
    return { count, resetInMs: (window + 1) * windowMs - now };
  }

  async close(): Promise<void> {
    this.sessions.clear();
    this.answers.clear();
    this.listeners.clear();
  }

  /** Drops what expired, so an idle gateway's maps do not only grow. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.sessions) if (entry.expires < now) this.sessions.delete(id);
    for (const [key, entry] of this.answers) if (entry.expires < now) this.answers.delete(key);
    for (const [client, entry] of this.counts)
      if (entry.window < Math.floor(now / 60_000) - 1) this.counts.delete(client);
  }
}
