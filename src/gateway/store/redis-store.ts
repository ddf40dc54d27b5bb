/**
 * The store shared by replicas, in Redis: sessions as JSON strings with a TTL refreshed on use, answers as keys
 * with a TTL plus a publish on one pattern-subscribed channel (a waiter checks the key after subscribing, so an
 * answer posted first is not missed), other messages between replicas as plain PUBLISH/SUBSCRIBE (PUBLISH answers
 * how many received it), and rate-limit counts as one INCR per client and window.
 */

import { createClient } from 'redis';
import {
  ANSWER_TTL_MS,
  abortError,
  type GatewayStore,
  type SessionClaim,
  type StoredSession,
} from './gateway-store.js';

/** The commands used here; the client's own generic type is too wide to pass around. */
interface RedisClient {
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
  incr(key: string): Promise<number>;
  pExpire(key: string, ms: number): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  sendCommand<T>(args: string[]): Promise<T>;
  pSubscribe(pattern: string, listener: (message: string, channel: string) => void): Promise<void>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Compare-and-set of a session record, atomic in Redis: KEYS[1] the session, ARGV the record's text as read, the
 * new record's text and the TTL. Answers nil when the session is gone, else {1 if set, the record's text now}.
 * Texts are compared whole (each was written by JSON.stringify, which a parse and stringify gives back unchanged).
 */
const CLAIM_SESSION_SCRIPT = `
local stored = redis.call('GET', KEYS[1])
if not stored then return false end
if stored ~= ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {0, stored}
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return {1, ARGV[2]}
`;

interface RedisStoreOptions {
  url: string;
  keyPrefix: string;
  onDiagnostic: (message: string) => void;
}

export class RedisGatewayStore implements GatewayStore {
  private readonly waiters = new Map<string, (message: string) => void>();
  private subscribed: Promise<void> | undefined;

  private constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly prefix: string,
  ) {}

  static async connect(options: RedisStoreOptions): Promise<RedisGatewayStore> {
    const client = createClient({ url: options.url });
    // Without a listener an error event would end the process; the client reconnects by itself.
    client.on('error', (error: unknown) =>
      options.onDiagnostic(`gateway store (redis): ${error instanceof Error ? error.message : String(error)}`),
    );
    const subscriber = client.duplicate();
    subscriber.on('error', () => undefined);
    await client.connect();
    await subscriber.connect();
    return new RedisGatewayStore(
      client as unknown as RedisClient,
      subscriber as unknown as RedisClient,
      options.keyPrefix,
    );
  }

  private key(kind: string, id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  async putSession(id: string, session: StoredSession, ttlMs: number): Promise<void> {
    await this.client.set(this.key('session', id), JSON.stringify(session), { PX: ttlMs });
  }

  async getSession(id: string, ttlMs: number): Promise<StoredSession | undefined> {
    const text = await this.client.sendCommand<string | null>(['GETEX', this.key('session', id), 'PX', String(ttlMs)]);
    return text === null ? undefined : (JSON.parse(text) as StoredSession);
  }

  async deleteSession(id: string): Promise<void> {
    await this.client.del(this.key('session', id));
  }

  async replaceSession(
    id: string,
    read: StoredSession,
    next: StoredSession,
    ttlMs: number,
  ): Promise<SessionClaim | undefined> {
    const reply = await this.client.sendCommand<[number, string] | null>([
      'EVAL',
      CLAIM_SESSION_SCRIPT,
      '1',
      this.key('session', id),
      JSON.stringify(read),
      JSON.stringify(next),
      String(ttlMs),
    ]);
    if (reply === null) return undefined;
    return { won: reply[0] === 1, session: JSON.parse(reply[1]) as StoredSession };
  }

  async postAnswer(key: string, message: string): Promise<void> {
    await this.client.set(this.key('answer', key), message, { PX: ANSWER_TTL_MS });
    await this.client.publish(this.key('answers', key), message);
  }

  private subscribe(): Promise<void> {
    this.subscribed ??= this.subscriber.pSubscribe(this.key('answers', '*'), (message, channel) => {
      const key = channel.slice(this.key('answers', '').length);
      this.waiters.get(key)?.(message);
    });
    return this.subscribed;
  }

  async waitForAnswer(key: string, signal: AbortSignal): Promise<string> {
    await this.subscribe();
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const done = (message: string): void => {
        this.waiters.delete(key);
        signal.removeEventListener('abort', onAbort);
        void this.client.del(this.key('answer', key)).catch(() => undefined);
        resolve(message);
      };
      const onAbort = (): void => {
        this.waiters.delete(key);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(key, done);
      // Posted before the waiter existed: it is in the key.
      this.client.get(this.key('answer', key)).then(
        (posted) => {
          if (posted !== null && this.waiters.get(key) === done) done(posted);
        },
        () => undefined,
      );
    });
  }

  publish(channel: string, message: string): Promise<number> {
    return this.client.publish(this.key('channel', channel), message);
  }

  async listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const listener = (message: string): void => onMessage(message);
    await this.subscriber.subscribe(this.key('channel', channel), listener);
    return () => this.subscriber.unsubscribe(this.key('channel', channel), listener);
  }

  async countRequest(client: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const key = this.key('rate', `${window}:${client}`);
    const count = await this.client.incr(key);
    if (count === 1) await this.client.pExpire(key, windowMs * 2);
    return { count, resetInMs: (window + 1) * windowMs - now };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.subscriber.close(), this.client.close()]);
  }
}
