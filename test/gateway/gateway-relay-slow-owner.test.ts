/**
 * A replica relaying a request to the replica owning its session probes the owner from the moment it hands the
 * request over, but the owner listens for those probes only after a store round trip of its own (subscribing). Here
 * the owner's subscription is held back until the relay has sent more unheard probes than it gives up after on an
 * owner already answering: the slow owner must still answer, not be taken for a dead one. The owner listens before it
 * reads the session: here its read of the session is held until a probe is heard, or as many went unheard. Two
 * gateways in this process share a memory store, probing every few milliseconds.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredSession } from '../../src/gateway/store/gateway-store.js';
import { MemoryGatewayStore } from '../../src/gateway/store/memory-store.js';
import { TallyReplicas } from './tally-replicas.js';

const TOKEN = 'a-slow-owner-test-token-of-enough-length';
/** More than the two unheard probes that end a relay to an owner that had shown it has the request. */
const PROBES_BEFORE_OWNER_LISTENS = 4;
const isLivenessChannel = (channel: string): boolean => channel.startsWith('relay:') && channel.endsWith(':alive');

/**
 * A memory store whose next liveness listen (the owner's) waits until its channel went unheard `probes` times, and
 * whose read of a session by the owner of a relayed request waits until a probe was heard or `probes` went unheard.
 */
class LateListeningStore extends MemoryGatewayStore {
  private holding = 0;
  private unheard = 0;
  private release: (() => void) | undefined;
  /** Unheard probes counted on the held channel when its listener was let through. */
  unheardWhenListened: number | undefined;
  private holdingOwnerRead = 0;
  private ownerReadNext = false;
  private releaseRead: ((heard: boolean) => void) | undefined;
  private unheardWhileReading = 0;
  /** Whether a probe was heard while the owner's read of the session was held. */
  heardWhileOwnerRead: boolean | undefined;

  holdNextLivenessListen(probes: number): void {
    this.holding = probes;
  }

  holdNextOwnerRead(probes: number): void {
    this.holdingOwnerRead = probes;
  }

  override async publish(channel: string, message: string): Promise<number> {
    // The next read of a session is the owner's, once a request was handed to it.
    if (channel.startsWith('replica:') && this.holdingOwnerRead > 0) this.ownerReadNext = true;
    const heard = await super.publish(channel, message);
    if (isLivenessChannel(channel) && heard === 0 && this.release !== undefined) {
      this.unheard += 1;
      if (this.unheard >= this.holding) this.release();
    }
    if (isLivenessChannel(channel) && this.releaseRead !== undefined) {
      if (heard === 0) this.unheardWhileReading += 1;
      if (heard > 0 || this.unheardWhileReading >= this.holdingOwnerRead) this.releaseRead(heard > 0);
    }
    return heard;
  }

  override async getSession(id: string, ttlMs: number): Promise<StoredSession | undefined> {
    if (this.ownerReadNext) {
      this.ownerReadNext = false;
      this.heardWhileOwnerRead = await new Promise<boolean>((resolve) => {
        this.releaseRead = resolve;
      });
      this.releaseRead = undefined;
      this.holdingOwnerRead = 0;
    }
    return super.getSession(id, ttlMs);
  }

  override async listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    if (isLivenessChannel(channel) && this.holding > 0 && this.unheardWhenListened === undefined) {
      await new Promise<void>((resolve) => {
        this.release = resolve;
      });
      this.unheardWhenListened = this.unheard;
      this.release = undefined;
    }
    return super.listen(channel, onMessage);
  }
}

const store = new LateListeningStore();
const replicas = new TallyReplicas(store, TOKEN);

beforeAll(() => replicas.start(2, { stateDirPrefix: 'mcp-host-slow-owner-', relayLivenessIntervalMs: 5 }), 60_000);

afterAll(() => replicas.close());

const echoed = (result: unknown): string | undefined =>
  (result as { content: Array<{ text?: string }> }).content[0]?.text;

it('waits for an owner that listens for the liveness probes only after several of them went unheard', async () => {
  const client = await replicas.connectRelayedToOwner('slow-owner-test-client');
  store.holdNextLivenessListen(PROBES_BEFORE_OWNER_LISTENS);
  const result = await client.callTool({ name: 'tally__echo', arguments: { text: 'still here' } });

  // The owner did listen late, and answered the relayed call.
  expect(store.unheardWhenListened).toBeGreaterThanOrEqual(PROBES_BEFORE_OWNER_LISTENS);
  expect(echoed(result)).toBe('still here');
}, 60_000);

it('hears the probes of a relayed request while the owner reads its session', async () => {
  const client = await replicas.connectRelayedToOwner('slow-owner-test-client');
  store.holdNextOwnerRead(PROBES_BEFORE_OWNER_LISTENS);
  const result = await client.callTool({ name: 'tally__echo', arguments: { text: 'read while heard' } });

  expect(store.heardWhileOwnerRead).toBe(true);
  expect(echoed(result)).toBe('read while heard');
}, 60_000);
